// Chats over the JSON API (docs/api.md, docs/product/chats.md): routes of the API's table, so the
// XSRF check (419), the error mapping and the OpenAPI description apply. What the thread page's
// script uses (send, catch up after a reconnect, read receipts, photos, offers), and what an app
// needs to list and start chats. Transport only: server/domain/chats/ decides.
//   GET  /api/chats                        the member's chats (inbox or archive), newest first
//   POST /api/chats                        start a chat about an ad with its first message
//   GET  /api/chats/:id/messages?after=N   messages after N (the reconnect cursor)
//   POST /api/chats/:id/messages           a text or an offer (idempotency key client_key)
//   POST /api/chats/:id/images             a photo (multipart), optional caption
//   POST /api/chats/:id/read               read up to a message (read receipts)
//   POST /api/chats/:id/offers/:message_id the seller accepts or declines an offer
import { fromNodeHeaders } from 'better-auth/node';
import type { Response as ExpressResponse, Request } from 'express';
import { z } from 'zod';
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import type { TFunction } from '../../app/i18n/translator.ts';
import { UPLOAD_FRAMING_BYTES } from '../../app/lib/body-limit.ts';
import { CATCH_UP_LIMIT } from '../../app/lib/chats.ts';
import { chatMessageSchema, chatOfferSchema, clientKeyField } from '../../app/lib/validation/chats.ts';
import { translateError } from '../../app/lib/validation/error-words.ts';
import { ID_PARAMETER } from '../../app/lib/validation/id.ts';
import type { AppServices } from '../context.ts';
import { sessionUserId } from '../domain/accounts.ts';
import { countUnreadChats, listChats, startChat } from '../domain/chats/chats.ts';
import { MAX_CHAT_IMAGE_BYTES } from '../domain/chats/images.ts';
import {
  answerOffer,
  markChatRead,
  messagesAfter,
  type NewMessage,
  sendImage,
  sendMessage,
} from '../domain/chats/messages.ts';
import { Invalid } from '../domain/errors.ts';
import { createStorage } from '../media/storage.ts';
import { type ApiRoute, apiRoute } from './api-route.ts';
import { type ApiError, ChatList, ChatMessage, ChatMessages, ChatReadState, ChatStarted, one } from './api-schemas.ts';
import { readMultipartWithin } from './body.ts';

/** The photo plus the multipart framing around it and its caption. */
export const CHAT_IMAGE_BODY_LIMIT = MAX_CHAT_IMAGE_BYTES + UPLOAD_FRAMING_BYTES;

const chatId = z.object({ id: ID_PARAMETER });
const offerPath = z.object({ id: ID_PARAMETER, message_id: ID_PARAMETER });

const MessageRequest = z
  .object({
    body: z.string().optional().meta({ description: 'A text of 1 to 2000 characters (or give amount)' }),
    amount: z
      .union([z.int(), z.string()])
      .optional()
      .meta({ description: 'A price offer in the ad’s currency, whole units (the buyer only)' }),
    client_key: clientKeyField,
  })
  .meta({ id: 'ChatMessageRequest', description: 'JSON or a url-encoded form' });

const StartRequest = MessageRequest.extend({ ad_id: z.union([z.int(), z.string()]) }).meta({
  id: 'ChatStartRequest',
  description: 'JSON or a url-encoded form: the ad, and the first message (body or amount)',
});

const ReadRequest = z
  .object({
    up_to: z
      .union([z.int(), z.string()])
      .optional()
      .meta({ description: 'The last message read; all of the chat when absent' }),
  })
  .meta({ id: 'ChatReadRequest' });

const OfferAnswer = z.object({ decision: z.enum(['accept', 'decline']) }).meta({ id: 'ChatOfferAnswer' });

const PhotoForm = z.object({
  image: z.file().min(1).meta({ description: 'JPEG, PNG, WebP, GIF or AVIF; at most 10 MB and 40 megapixels' }),
  body: z.string().optional().meta({ description: 'A caption of at most 2000 characters' }),
  client_key: clientKeyField,
});

/** The body as an object (JSON or a form; anything else reads as empty). */
const bodyOf = (req: Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};

/** Field errors of a schema's refusal, as rule codes (translated by the API's error mapper). */
function invalidOf(error: z.ZodError): Invalid {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? 'form')] ??= [issue.message];
  return new Invalid(errors);
}

/** A text (body) or an offer (amount) from a request body; Invalid when neither checks out. */
function newMessage(body: Record<string, unknown>): { content: NewMessage; clientKey?: string } {
  if (body.amount !== undefined && body.amount !== '') {
    const parsed = chatOfferSchema.safeParse({ amount: String(body.amount), client_key: body.client_key });
    if (!parsed.success) throw invalidOf(parsed.error);
    return { content: { kind: 'offer', amount: parsed.data.amount }, clientKey: parsed.data.client_key };
  }
  const parsed = chatMessageSchema.safeParse({ body: body.body, client_key: body.client_key });
  if (!parsed.success) throw invalidOf(parsed.error);
  return { content: { kind: 'text', body: parsed.data.body }, clientKey: parsed.data.client_key };
}

const numberField = (value: unknown, field: string): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Invalid({ [field]: ['in'] });
  return n;
};

export function chatRoutes(services: AppServices, localeOf: (req: Request) => Locale): ApiRoute[] {
  const { db } = services.database;
  const storage = createStorage(services.config);
  /** The signed-in member (their id), or a 401 answered (then undefined). */
  const member = async (req: Request, res: ExpressResponse): Promise<{ id: string } | undefined> => {
    res.setHeader('Cache-Control', 'no-store');
    const id = await sessionUserId(services.auth, fromNodeHeaders(req.headers));
    if (!id) res.status(401).json({ message: i18nFor(localeOf(req)).t('errors:sign-in-required') } satisfies ApiError);
    return id ? { id } : undefined;
  };
  const photoRefused = (res: ExpressResponse, t: TFunction, codes: string[], status = 422) =>
    void res.status(status).json({
      message: status === 413 ? t('errors:image-too-large') : t('validation:invalid'),
      errors: { image: codes.map((code) => translateError(t, code, 'image')) },
    } satisfies ApiError);

  return [
    apiRoute({
      method: 'get',
      path: '/chats',
      summary: 'The signed-in member’s chats, the latest conversation first, 20 a page',
      query: {
        archived: z.enum(['1']).optional().meta({ description: '1: the archived chats' }),
        before: ID_PARAMETER.optional().meta({ description: 'meta.next of the previous page' }),
      },
      ok: { status: 200, description: 'One page of chats', schema: ChatList },
      errors: { 401: 'Not signed in', 422: 'before is not an id' },
      handler: async (req, res) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const query = new URL(req.originalUrl, 'http://x').searchParams;
        const before = query.get('before');
        const parsed = before === null ? undefined : ID_PARAMETER.safeParse(before);
        if (parsed && !parsed.success) throw new Invalid({ before: ['in'] });
        const page = await listChats(db, user.id, { archived: query.get('archived') === '1', before: parsed?.data });
        return { data: page.items, meta: { next: page.next } };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/chats',
      summary: 'Start a chat about an ad with its first message (a text, a quick reply or a price offer)',
      description:
        'One chat per ad and buyer: a buyer who has one about this ad already writes in it (created false). Refused with 403 and words to show: the member’s own ad, an ad that is not published (sold, expired, deleted, under review), a seller who is gone or banned, a block between the two; an offer on an ad given away. At most 20 new chats an hour and 60 messages in ten minutes per member (429).',
      body: { contentType: 'application/json', schema: StartRequest },
      ok: { status: 201, description: 'Stored (200: the same client_key was stored before)', schema: ChatStarted },
      errors: {
        401: 'Not signed in',
        403: 'Not allowed here (see the description); message holds the words',
        404: 'No such ad',
        422: 'Empty or too long text, a bad amount or key; errors by field',
        429: 'Too many chats or messages',
      },
      handler: async (req, res) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const body = bodyOf(req);
        const adId = numberField(body.ad_id, 'ad_id');
        if (!adId) throw new Invalid({ ad_id: ['required'] });
        const { content, clientKey } = newMessage(body);
        const sent = await startChat(db, { adId, buyerId: user.id, clientKey }, content);
        if (sent.duplicate) res.status(200);
        const reply = { data: { chat_id: sent.message.chat_id, created: sent.created, message: sent.message } };
        if (sent.duplicate) return void res.json(reply);
        return reply;
      },
    }),
    apiRoute({
      method: 'get',
      path: '/chats/:id/messages',
      summary: 'The messages of a chat after a message id, oldest first (what a reconnecting client missed)',
      description: `At most ${CATCH_UP_LIMIT} a call; meta.more says to ask again after the last one. Someone else’s chat is 404.`,
      params: chatId,
      query: { after: z.string().optional().meta({ description: 'A message id; 0 or absent: from the first' }) },
      ok: { status: 200, description: 'Messages', schema: ChatMessages },
      errors: { 401: 'Not signed in', 404: 'No such chat of the member', 422: 'after is not a number' },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const after = numberField(new URL(req.originalUrl, 'http://x').searchParams.get('after'), 'after') ?? 0;
        const found = await messagesAfter(db, user.id, id, after);
        return { data: found.messages, meta: { more: found.more, other_last_read: found.other_last_read } };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/chats/:id/messages',
      summary: 'Send a text or (the buyer) a price offer in a chat',
      description:
        'A retry with the same client_key answers the message stored the first time (200), never a second one. Refused with 403 and the words to show: a blocked member reads only “You can’t reply here”; a chat whose ad was deleted or whose other side left is closed; offers only from the buyer on a live ad.',
      params: chatId,
      body: { contentType: 'application/json', schema: MessageRequest },
      ok: { status: 201, description: 'Stored (200: stored before with this client_key)', schema: one(ChatMessage) },
      errors: {
        401: 'Not signed in',
        403: 'Not allowed to write here; message holds the words',
        404: 'No such chat of the member',
        422: 'Empty or too long text, a bad amount or key',
        429: 'Too many messages',
      },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const { content, clientKey } = newMessage(bodyOf(req));
        const sent = await sendMessage(db, { chatId: id, senderId: user.id, clientKey }, content);
        if (sent.duplicate) return void res.status(200).json({ data: sent.message });
        return { data: sent.message };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/chats/:id/images',
      summary: 'Send a photo in a chat, with an optional caption',
      description:
        'The file is checked by its content, auto-rotated, stripped of EXIF/GPS and stored as WebP (480 and 1600 px wide at most). At most 30 photos an hour per member. The chat’s rules are those of messages.',
      params: chatId,
      body: { contentType: 'multipart/form-data', schema: PhotoForm },
      ok: { status: 201, description: 'Stored (200: stored before with this client_key)', schema: one(ChatMessage) },
      errors: {
        400: 'Malformed multipart body',
        401: 'Not signed in',
        403: 'Not allowed to write here',
        404: 'No such chat of the member',
        413: 'Body far beyond the size limit',
        422: 'Refused file (errors.image) or caption (errors.body)',
        429: 'Too many photos or messages',
      },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const t = i18nFor(localeOf(req)).t;
        if (!req.is('multipart/form-data')) return photoRefused(res, t, ['required']);
        const read = await readMultipartWithin(req, res, CHAT_IMAGE_BODY_LIMIT);
        if (read.kind === 'aborted') return void res.destroy();
        if (read.kind === 'too-large') return photoRefused(res, t, ['image-too-large'], read.drained ? 422 : 413);
        if (read.kind === 'malformed') {
          return void res.status(400).json({ message: t('errors:bad-request') } satisfies ApiError);
        }
        const { form } = read;
        const caption = form.get('body');
        const parsed = PhotoForm.safeParse({
          image: form.get('image'),
          body: typeof caption === 'string' ? caption : undefined,
          client_key: form.get('client_key') ?? undefined,
        });
        if (!parsed.success) {
          const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])));
          if (fields.has('image')) return photoRefused(res, t, ['required']);
          throw invalidOf(parsed.error);
        }
        const bytes = Buffer.from(await parsed.data.image.arrayBuffer());
        const sent = await sendImage(
          db,
          storage,
          { chatId: id, senderId: user.id, clientKey: parsed.data.client_key },
          bytes,
          parsed.data.body,
        );
        if (sent.duplicate) return void res.status(200).json({ data: sent.message });
        return { data: sent.message };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/chats/:id/read',
      summary: 'Mark a chat read up to a message (read receipts; the other side sees it live)',
      params: chatId,
      body: { contentType: 'application/json', schema: ReadRequest },
      ok: { status: 200, description: 'The member’s read state', schema: ChatReadState },
      errors: { 401: 'Not signed in', 404: 'No such chat of the member', 422: 'up_to is not a number' },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const upTo = numberField(bodyOf(req).up_to, 'up_to');
        const read = await markChatRead(db, user.id, id, upTo);
        return {
          data: {
            last_read_message_id: read.last_read_message_id,
            unread: read.unread,
            unread_chats: await countUnreadChats(db, user.id),
          },
        };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/chats/:id/offers/:message_id',
      summary: 'The seller accepts or declines the buyer’s pending offer',
      params: offerPath,
      body: { contentType: 'application/json', schema: OfferAnswer },
      ok: { status: 201, description: 'The answer, a message of its own', schema: one(ChatMessage) },
      errors: {
        401: 'Not signed in',
        403: 'The buyer, an offer already answered or replaced, or a chat not open',
        404: 'No such offer in a chat of the member',
        422: 'decision is not accept or decline',
      },
      handler: async (req, res, { id, message_id }) => {
        const user = await member(req, res);
        if (!user) return undefined;
        const parsed = OfferAnswer.safeParse(bodyOf(req));
        if (!parsed.success) throw new Invalid({ decision: [bodyOf(req).decision ? 'in' : 'required'] });
        const sent = await answerOffer(db, {
          chatId: id,
          userId: user.id,
          messageId: message_id,
          decision: parsed.data.decision,
        });
        return { data: sent.message };
      },
    }),
  ];
}
