// What every loader and action gets from the HTTP shell, through React Router's context.
// This module must be part of the server build (never imported from outside it): a context
// created in another copy of react-router is a different object and `context.get` would fail.
import { createContext } from 'react-router';
import type { Auth } from './auth/index.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/index.ts';
import type { SmsSender } from './sms/index.ts';

export interface BuildInfo {
  id: string;
  time: string;
}

export interface AppServices {
  config: Config;
  auth: Auth;
  mailer: Mailer;
  sms: SmsSender;
  database: DatabaseHandle;
  logger: Logger;
  build: BuildInfo;
}

export interface RequestInfo {
  id: string;
  ip: string;
  userAgent: string;
  nonce: string;
  logger: Logger;
}

export const servicesContext = createContext<AppServices>();
export const requestContext = createContext<RequestInfo>();
