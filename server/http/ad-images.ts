// Ad photos over the JSON API: routes of the API's table (server/http/api.ts), so the XSRF check,
// the Vary header, the error mapping and the OpenAPI description of the API apply. Transport only:
// the body is read with a hard size limit, parsed as multipart, and handed to
// server/domain/ad-images.ts.
//   POST   /api/ad-images       multipart/form-data, file field `photo` → 201 AdImage
//   DELETE /api/ad-images/:id   → 204
import { fromNodeHeaders } from 'better-auth/node';
import type { Response as ExpressResponse, Request } from 'express';
import { z } from 'zod';
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import type { TFunction } from '../../app/i18n/translator.ts';
import { UPLOAD_FRAMING_BYTES } from '../../app/lib/body-limit.ts';
import { translateError } from '../../app/lib/validation/error-words.ts';
import { ID_PARAMETER } from '../../app/lib/validation/id.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { deleteAdImage, MAX_AD_PHOTO_BYTES, uploadAdImage } from '../domain/ad-images.ts';
import { Invalid } from '../domain/errors.ts';
import { createStorage } from '../media/storage.ts';
import { type ApiRoute, apiRoute } from './api-route.ts';
import { AdImage, type ApiError } from './api-schemas.ts';
import { readMultipartWithin } from './body.ts';

/** The photo plus the multipart framing around it (boundaries, part headers, a stray small field). */
export const AD_PHOTO_BODY_LIMIT = MAX_AD_PHOTO_BYTES + UPLOAD_FRAMING_BYTES;

function photoErrors(t: TFunction, codes: string[]) {
  // `image` names the field in the messages that use its label ("The photo field is required").
  return { photo: codes.map((code) => translateError(t, code, 'image')) };
}

/** 422 in the API's error format, the file's problems under `photo`. */
function refusePhoto(res: ExpressResponse, t: TFunction, codes: string[]): undefined {
  res.status(422).json({ message: t('validation:invalid'), errors: photoErrors(t, codes) } satisfies ApiError);
}

/** The upload's form: one non-empty file. */
const PhotoForm = z.object({
  photo: z.file().min(1).meta({ description: 'JPEG, PNG, WebP, GIF or AVIF; at most 10 MB and 40 megapixels' }),
});

const signInRequired = (res: ExpressResponse, t: TFunction) =>
  void res.status(401).json({ message: t('errors:sign-in-required') } satisfies ApiError);

export function adImageRoutes(services: AppServices, localeOf: (req: Request) => Locale): ApiRoute[] {
  const { db } = services.database;
  const storage = createStorage(services.config);
  const member = (req: Request) => sessionUser(services.auth, db, fromNodeHeaders(req.headers));

  return [
    apiRoute({
      method: 'post',
      path: '/ad-images',
      summary: 'Upload one ad photo (signed-in members), before or while the ad form is filled in',
      description:
        'The file is checked by its content, auto-rotated, stripped of EXIF/GPS and stored as WebP variants (thumb 320, medium 800, large 1600 px wide, never upscaled). The photo belongs to the uploader, unattached, until an ad of theirs is saved with its id; unattached photos are deleted after 24 hours. At most 30 unattached photos per member and 60 uploads per hour.',
      body: { contentType: 'multipart/form-data', schema: PhotoForm },
      ok: { status: 201, description: 'Stored', schema: AdImage },
      errors: {
        400: 'Malformed multipart body',
        401: 'Not signed in',
        413: 'Body far beyond the size limit (the connection is closed); errors.photo holds the words',
        422: 'Refused file, words under errors.photo: missing, over 10 MB, not a supported image, too many pixels, unreadable, or 30 unattached photos already',
        429: 'Too many uploads',
      },
      handler: async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        const t = i18nFor(localeOf(req)).t;
        const user = await member(req);
        if (!user) return signInRequired(res, t);
        // The API's JSON and form parsers have consumed any other kind of body; only multipart is ours to read.
        if (!req.is('multipart/form-data')) return refusePhoto(res, t, ['required']);

        const read = await readMultipartWithin(req, res, AD_PHOTO_BODY_LIMIT);
        if (read.kind === 'aborted') return void res.destroy();
        if (read.kind === 'too-large') {
          // Read to its end, the photo field's own error; cut before it (server/http/body.ts), a 413.
          if (read.drained) return refusePhoto(res, t, ['image-too-large']);
          const message = t('errors:image-too-large');
          return void res.status(413).json({ message, errors: { photo: [message] } } satisfies ApiError);
        }
        if (read.kind === 'malformed') {
          return void res.status(400).json({ message: t('errors:bad-request') } satisfies ApiError);
        }
        // A form sent without choosing a file carries an empty, nameless part.
        const parsed = PhotoForm.safeParse({ photo: read.form.get('photo') });
        if (!parsed.success) return refusePhoto(res, t, ['required']);

        try {
          return await uploadAdImage(db, storage, user.id, Buffer.from(await parsed.data.photo.arrayBuffer()));
        } catch (error) {
          if (!(error instanceof Invalid)) throw error;
          return refusePhoto(res, t, Object.values(error.errors).flat());
        }
      },
    }),
    apiRoute({
      method: 'delete',
      path: '/ad-images/:id',
      summary: "Delete one of the member's photos: unattached, or on an ad of theirs; its files go too",
      params: z.object({ id: ID_PARAMETER }),
      ok: { status: 204, description: 'Deleted' },
      errors: { 401: 'Not signed in', 404: "Unknown id, or someone else's photo" },
      handler: async (req, res, { id }) => {
        res.setHeader('Cache-Control', 'no-store');
        const user = await member(req);
        if (!user) return signInRequired(res, i18nFor(localeOf(req)).t);
        await deleteAdImage(db, storage, user.id, id);
        return undefined;
      },
    }),
  ];
}
