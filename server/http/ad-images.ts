// Ad photos over the JSON API, mounted by server/http/api.ts at /api/ad-images (so the XSRF check,
// the Vary header and the error mapping of the API apply). Transport only: the body is read with a
// hard size limit, parsed as multipart, and handed to server/domain/ad-images.ts.
//   POST   /api/ad-images       multipart/form-data, file field `photo` → 201 UploadedAdImage
//   DELETE /api/ad-images/:id   → 204
import { fromNodeHeaders } from 'better-auth/node';
import { type Response as ExpressResponse, type Request, Router } from 'express';
import type { TFunction } from 'i18next';
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import { translateError } from '../../app/lib/validation/rules.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { deleteAdImage, MAX_AD_PHOTO_BYTES, uploadAdImage } from '../domain/ad-images.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { createStorage } from '../media/storage.ts';

/** The photo plus the multipart framing around it (boundaries, part headers, a stray small field). */
export const AD_PHOTO_BODY_LIMIT = MAX_AD_PHOTO_BYTES + 64 * 1024;
/**
 * An oversized body is still read (and thrown away) up to this size, so the client hears our
 * translated 422 instead of a connection reset; beyond it we answer 413 and close the connection.
 */
export const AD_PHOTO_DRAIN_LIMIT = 4 * AD_PHOTO_BODY_LIMIT;

type BodyResult =
  | { kind: 'ok'; body: Uint8Array<ArrayBuffer> }
  | { kind: 'too-large' }
  | { kind: 'cut' }
  | { kind: 'aborted' };

/** Reads the request body, keeping at most `limit` bytes in memory and reading at most `drainLimit`. */
export function readBodyWithin(req: Request, limit: number, drainLimit: number): Promise<BodyResult> {
  const declared = Number(req.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > drainLimit) return Promise.resolve({ kind: 'cut' });
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let total = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > drainLimit) {
        req.pause();
        return finish({ kind: 'cut' });
      }
      // Past the limit nothing more is kept: the body is only drained to the end.
      if (total > limit) chunks = [];
      else chunks.push(chunk);
    };
    const onEnd = () =>
      finish(
        total > limit ? { kind: 'too-large' } : { kind: 'ok', body: Buffer.concat(chunks) as Uint8Array<ArrayBuffer> },
      );
    const onAbort = () => finish({ kind: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    // Closed before the end: the client went away.
    req.on('close', onAbort);
  });
}

function photoErrors(t: TFunction, codes: string[]) {
  // `image` names the field in the messages that use its label ("The photo field is required").
  return { photo: codes.map((code) => translateError(t, code, 'image')) };
}

/** 422 in the API's error format, the file's problems under `photo`. */
function refusePhoto(res: ExpressResponse, t: TFunction, codes: string[]) {
  res.status(422).json({ message: t('validation:invalid'), errors: photoErrors(t, codes) });
}

export function adImagesRouter(services: AppServices, localeOf: (req: Request) => Locale): Router {
  const router = Router();
  const { db } = services.database;
  const storage = createStorage(services.config);
  const member = (req: Request) => sessionUser(services.auth, db, fromNodeHeaders(req.headers));

  router.post('/', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const t = i18nFor(localeOf(req)).t;
    const user = await member(req);
    if (!user) return void res.status(401).json({ message: t('errors:sign-in-required') });
    // The API's JSON and form parsers have consumed any other kind of body; only multipart is ours to read.
    if (!req.is('multipart/form-data')) return refusePhoto(res, t, ['required']);

    const read = await readBodyWithin(req, AD_PHOTO_BODY_LIMIT, AD_PHOTO_DRAIN_LIMIT);
    switch (read.kind) {
      case 'aborted':
        return void res.destroy();
      case 'cut': {
        // Closing stops the rest of the upload instead of reading it all.
        res.setHeader('Connection', 'close');
        const message = t('errors:image-too-large');
        res.status(413).json({ message, errors: { photo: [message] } });
        res.on('finish', () => req.destroy());
        return;
      }
      case 'too-large':
        return refusePhoto(res, t, ['image-too-large']);
    }

    let form: FormData;
    try {
      form = await new Response(read.body, { headers: { 'content-type': req.get('content-type') ?? '' } }).formData();
    } catch {
      return void res.status(400).json({ message: t('errors:bad-request') });
    }
    const photo = form.get('photo');
    // A form sent without choosing a file carries an empty, nameless part.
    if (!(photo instanceof Blob) || photo.size === 0) return refusePhoto(res, t, ['required']);

    try {
      const uploaded = await uploadAdImage(db, storage, user.id, Buffer.from(await photo.arrayBuffer()));
      res.status(201).json(uploaded);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      refusePhoto(res, t, Object.values(error.errors).flat());
    }
  });

  router.delete('/:id', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const user = await member(req);
    if (!user) {
      return void res.status(401).json({ message: i18nFor(localeOf(req)).t('errors:sign-in-required') });
    }
    const id = req.params.id;
    if (typeof id !== 'string' || !/^[1-9]\d{0,14}$/.test(id)) throw new NotFound('errors.not-found');
    await deleteAdImage(db, storage, user.id, Number(id));
    res.status(204).end();
  });

  return router;
}
