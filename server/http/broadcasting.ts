// Channel authorisation for the realtime client (docs/realtime.md, "Channel authorisation"):
// `POST /api/broadcasting/auth` signs a subscription to a private channel the signed-in member may
// join, as Pusher's protocol wants it (`{auth: "key:hmac"}`, server/realtime/signature.ts), with the
// app's secret, whichever server (embedded or external) checks it. A route of the API's table, so
// the XSRF check (419), the error format and the OpenAPI description apply.
//   401 not signed in; 422 a missing or malformed socket_id or channel_name; 403 any other channel
//   (server/realtime/channels.ts says which: the member's own channel and their chats' presence).
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { Invalid } from '../domain/errors.ts';
import { channelGrant } from '../realtime/channels.ts';
import { DEFAULT_LIMITS, isValidChannelName, SOCKET_ID } from '../realtime/protocol.ts';
import { channelAuth } from '../realtime/signature.ts';
import { type ApiRoute, apiRoute } from './api-route.ts';
import type { ApiError } from './api-schemas.ts';
import { discardRest } from './body.ts';

/** A socket id as servers write them ("1234.5678"), each part a safe whole number. */
const SocketId = z
  .string()
  .max(41)
  .regex(SOCKET_ID)
  .meta({ description: 'The connection’s socket_id, as pusher:connection_established gave it', example: '1234.5678' });

const ChannelName = z
  .string()
  .refine((v) => isValidChannelName(v, DEFAULT_LIMITS.maxChannelNameLength))
  .meta({
    description: 'The channel to subscribe to: private-users.{your id}, or presence-chats.{a chat of yours}',
    example: 'private-users.abc',
  });

const ChannelAuthRequest = z
  .object({ socket_id: SocketId, channel_name: ChannelName })
  .meta({ id: 'ChannelAuthRequest', description: 'JSON or a url-encoded form (what pusher-js sends)' });

const ChannelAuth = z
  .object({
    auth: z.string().meta({
      description: '`{app key}:{hex HMAC-SHA256 of "socket_id:channel_name"}` (presence: `…:channel_data` too)',
    }),
    channel_data: z
      .string()
      .optional()
      .meta({ description: 'Presence channels only: JSON `{user_id, user_info: {name, image}}`, as signed' }),
  })
  .meta({ id: 'ChannelAuth' });

export function broadcastingRoutes(services: AppServices, localeOf: (req: import('express').Request) => Locale) {
  const { db } = services.database;
  const { key, secret } = services.config.realtime;
  const routes: ApiRoute[] = [
    apiRoute({
      method: 'post',
      path: '/broadcasting/auth',
      summary: 'Sign a realtime subscription to a private or presence channel the signed-in member may join',
      description:
        'For pusher-js and laravel-echo (cookie authentication: the session cookie and X-XSRF-TOKEN). A member may join `private-users.{their id}` (notifications, unread counters, new chat messages) and `presence-chats.{id}` of a chat they take part in (its messages, read receipts, typing, who is here; the answer carries the signed `channel_data` with their id, name and avatar); every other channel is refused with 403.',
      body: { contentType: 'application/json', schema: ChannelAuthRequest },
      ok: { status: 200, description: 'The signature pusher-js sends with its subscription', schema: ChannelAuth },
      errors: {
        401: 'Not signed in',
        403: 'Signed in, but not allowed on this channel',
        415: 'A body that is neither JSON nor a url-encoded form',
        422: 'socket_id or channel_name missing or malformed',
      },
      handler: async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        const t = i18nFor(localeOf(req)).t;
        // The API's parsers read JSON and forms; a multipart body is left unread (upload routes read theirs).
        if (req.is('multipart/form-data')) {
          discardRest(req, res);
          return void res.status(415).json({ message: t('errors:unsupported-media-type') } satisfies ApiError);
        }
        const user = await sessionUser(services.auth, db, fromNodeHeaders(req.headers));
        if (!user) return void res.status(401).json({ message: t('errors:sign-in-required') } satisfies ApiError);
        const body: Record<string, unknown> =
          req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
        const parsed = ChannelAuthRequest.safeParse(body);
        if (!parsed.success) {
          const fields = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? 'channel_name')));
          const code = (f: string) =>
            body[f] === undefined || body[f] === '' ? 'validation.required' : 'validation.in';
          throw new Invalid(Object.fromEntries([...fields].map((f) => [f, [code(f)]])));
        }
        const { socket_id, channel_name } = parsed.data;
        const grant = await channelGrant(db, user, channel_name);
        if (!grant) return void res.status(403).json({ message: t('errors:channel-forbidden') } satisfies ApiError);
        if (grant.channelData === undefined) return { auth: channelAuth({ key, secret }, socket_id, channel_name) };
        return {
          auth: channelAuth({ key, secret }, socket_id, channel_name, grant.channelData),
          channel_data: grant.channelData,
        };
      },
    }),
  ];
  return routes;
}
