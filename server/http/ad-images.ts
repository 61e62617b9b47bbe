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
import { parseId } from '../../app/lib/ids.ts';
import { translateError } from '../../app/lib/validation/rules.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { deleteAdImage, MAX_AD_PHOTO_BYTES, uploadAdImage } from '../domain/ad-images.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { createStorage } from '../media/storage.ts';
import { discardRest, readBodyWithin, UPLOAD_FRAMING_BYTES } from './body.ts';

/** The photo plus the multipart framing around it (boundaries, part headers, a stray small field). */
export const AD_PHOTO_BODY_LIMIT = MAX_AD_PHOTO_BYTES + UPLOAD_FRAMING_BYTES;

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

    const read = await readBodyWithin(req, AD_PHOTO_BODY_LIMIT);
    if (read.kind === 'aborted') return void res.destroy();
    if (read.kind === 'too-large') {
      // Read to its end, the photo field's own error; cut before it (server/http/body.ts), a 413.
      if (read.drained) return refusePhoto(res, t, ['image-too-large']);
      discardRest(req, res);
      const message = t('errors:image-too-large');
      return void res.status(413).json({ message, errors: { photo: [message] } });
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
    const id = parseId(req.params.id);
    if (id === null) throw new NotFound('errors.not-found');
    await deleteAdImage(db, storage, user.id, id);
    res.status(204).end();
  });

  return router;
}
