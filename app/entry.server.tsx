import { STATUS_CODES } from 'node:http';
import { PassThrough } from 'node:stream';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { type EntryContext, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from 'react-router';
import { requestContext } from '../server/context.ts';
import { localeOfPath } from './i18n/config.ts';
import { i18nFor } from './i18n/resources.server.ts';
import { I18nContext } from './i18n/use-t.ts';
import { hydrateAfterLoad } from './lib/hydrate-after-load.server.ts';
import { NonceContext } from './lib/nonce.tsx';

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const bot = isbot(request.headers.get('user-agent') ?? '');
  // A thrown Response's status text ("Page not found: /x") becomes the HTTP reason phrase.
  const thrown = Object.values(routerContext.staticHandlerContext.errors ?? {}).find(isRouteErrorResponse);
  const statusText = thrown?.statusText ? thrown.statusText.replace(/[^\x20-\x7e]/g, '?').slice(0, 200) : undefined;
  const reason = responseStatusCode === thrown?.status ? statusText : undefined;
  // Crawlers get the status with a minimal body, not the rendered error page (docs/product/site.md, "Errors").
  if (bot && responseStatusCode >= 400 && routerContext.staticHandlerContext.errors) {
    const text = responseStatusCode === 404 ? 'Page Not Found' : (STATUS_CODES[responseStatusCode] ?? 'Error');
    return new Response(`${responseStatusCode} ${text}\n`, {
      status: responseStatusCode,
      statusText: reason,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Robots-Tag': 'noindex' },
    });
  }
  const { nonce } = loadContext.get(requestContext);
  const translator = i18nFor(localeOfPath(new URL(request.url).pathname));

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <I18nContext value={translator}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nContext>
      </NonceContext>,
      {
        nonce,
        // Every Suspense boundary in place: React outlines large ones past its first chunk (a hidden
        // copy a script moves into place), which would leave them hidden without JavaScript (the ad
        // page's forms, app/lib/lazy-component.tsx). We send one body anyway (below).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        // The whole page, then one answer: our pages have no deferred parts to stream, and one body
        // costs the compression and the page cache one pass instead of one per chunk.
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on('data', (chunk: Buffer) => chunks.push(chunk));
          body.on('end', () => {
            responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
            resolve(
              new Response(Buffer.from(hydrateAfterLoad(Buffer.concat(chunks).toString('utf8'))), {
                headers: responseHeaders,
                status: responseStatusCode,
                statusText: reason,
              }),
            );
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
