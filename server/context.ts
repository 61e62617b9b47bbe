// What every loader and action gets from the HTTP shell, through React Router's context.
// This module must be part of the server build (never imported from outside it): a context
// created in another copy of react-router is a different object and `context.get` would fail.
import { createContext } from 'react-router';
import type { Auth } from './auth/index.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import type { Logger } from './logger.ts';
import type { Publisher } from './realtime/publish.ts';
import type { SmsSender } from './sms/index.ts';

export interface BuildInfo {
  id: string;
  time: string;
}

export interface AppServices {
  config: Config;
  auth: Auth;
  sms: SmsSender;
  database: DatabaseHandle;
  logger: Logger;
  build: BuildInfo;
  /** Realtime events to browsers (server/realtime/publish.ts); publish them after commit. */
  realtime: Publisher;
}

export interface RequestInfo {
  id: string;
  ip: string;
  userAgent: string;
  nonce: string;
  logger: Logger;
  /** The body was larger than its route's limit (server/http/pages.ts): none of it was read. */
  bodyTooLarge: boolean;
  /**
   * The status a page's body is refused with before any loader or action runs (the root route's
   * middleware answers it): 413 too large (unless the route answers that itself), 415 not a form,
   * 400 a multipart form that does not parse. Null when the body may be read.
   */
  bodyRefusal: 400 | 413 | 415 | null;
}

export const servicesContext = createContext<AppServices>();
export const requestContext = createContext<RequestInfo>();
