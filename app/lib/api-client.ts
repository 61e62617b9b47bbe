// The browser's side of the JSON API's writes (docs/api.md): the `XSRF-TOKEN` cookie echoed
// in `X-XSRF-TOKEN` (fetched from `GET /api/csrf-cookie` when missing), the page's language in
// `X-Locale`, a 419 (token mismatch) answered by a fresh token and one more try, and a 401 sending
// the browser to the login page, back to where it was afterwards.
import { type Locale, localizePath } from '~/i18n/config.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** The API's error body: `{message, errors?: {field: [translated words]}}`. */
export interface ApiError {
  message?: string;
  errors?: Record<string, string[]>;
}

export interface ApiResponse<T> {
  status: number;
  /** The parsed JSON body; null when there was none or it was not JSON. */
  body: T | ApiError | null;
}

/** Thrown when the request never got an answer (offline, connection reset). */
export class NetworkError extends Error {
  constructor() {
    super('network');
    this.name = 'NetworkError';
  }
}

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

let fetchingToken: Promise<void> | null = null;

/** The anti-forgery token, asked for once when the cookie is missing (or `fresh` after a 419). */
export async function xsrfToken(fresh = false): Promise<string> {
  if (fresh || !readCookie(XSRF_COOKIE)) {
    fetchingToken ??= fetch('/api/csrf-cookie', { credentials: 'same-origin', cache: 'no-store' })
      .then(() => undefined)
      .finally(() => {
        fetchingToken = null;
      });
    await fetchingToken;
  }
  return readCookie(XSRF_COOKIE) ?? '';
}

/** An API call answering 401: to the login page, coming back here afterwards. */
export function goToLogin(locale: Locale): void {
  const back = window.location.pathname + window.location.search;
  window.location.assign(`${localizePath('/login', locale)}?${new URLSearchParams({ redirect: back })}`);
}

/** The first field message of an error body, else its message. */
export function apiErrorText(body: unknown, field?: string): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { message, errors } = body as ApiError;
  const list = errors ? (field ? errors[field] : Object.values(errors).flat()) : undefined;
  const first = list?.find((m) => typeof m === 'string' && m);
  return first ?? (typeof message === 'string' && message ? message : undefined);
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

interface SendOptions {
  locale: Locale;
  /** A multipart form (uploads) or url-encoded fields. */
  body?: FormData | URLSearchParams;
  /** Upload progress, 0–1 (XMLHttpRequest's upload events: fetch has none). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function sendOnce<T>(method: string, url: string, token: string, opts: SendOptions): Promise<ApiResponse<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Locale', opts.locale);
    xhr.setRequestHeader(XSRF_HEADER, token);
    xhr.withCredentials = true;
    if (opts.onProgress) {
      const report = opts.onProgress;
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) report(e.loaded / e.total);
      };
    }
    const abort = () => xhr.abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    const done = () => opts.signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, body: parse(xhr.responseText) as T | ApiError | null });
    };
    xhr.onerror = () => {
      done();
      reject(new NetworkError());
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The request was aborted.', 'AbortError'));
    };
    if (opts.signal?.aborted) return xhr.abort();
    xhr.send(opts.body ?? null);
  });
}

/**
 * A state-changing API request (POST, PUT, DELETE) with upload progress. Resolves with the status
 * and the parsed body whatever the status; rejects with NetworkError or an AbortError. A 401 also
 * sends the browser to the login page.
 */
export async function apiSend<T>(method: string, url: string, opts: SendOptions): Promise<ApiResponse<T>> {
  let res = await sendOnce<T>(method, url, await xsrfToken(), opts);
  if (res.status === 419) res = await sendOnce<T>(method, url, await xsrfToken(true), opts);
  if (res.status === 401) goToLogin(opts.locale);
  return res;
}
