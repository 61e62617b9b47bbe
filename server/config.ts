// Environment → typed configuration, validated once at boot (README.md, "Configuration").
// A bad value stops the process with a message naming the variable.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type OidcProvider, oidcProviderFromEnv } from './auth/oidc.ts';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

const intIn = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** Realtime app ids and keys travel in URL paths (`/app/{key}`, `/apps/{id}/…`). */
const REALTIME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const REALTIME_ID_MESSAGE = 'must be 1 to 64 letters, digits, _ or -';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intIn(0, 65535, 3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  APP_URL: optionalUrl(['http://', 'https://']),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://', 'sqlite:', 'file:']),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  AUTH_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, { message: 'must be at least 32 characters' }),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.string().trim().default('Souq <no-reply@souq.local>'),
  CONTACT_EMAIL: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || v.split(',').every((e) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e.trim())), {
      message: 'must be one or more email addresses separated by commas',
    }),
  SMS_PROVIDER: z.enum(['console', 'http']).default('console'),
  SMS_HTTP_URL: optionalUrl(['http://', 'https://']),
  SMS_HTTP_KEY: z.string().optional(),
  FIREBASE_PROJECT_ID: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^[a-z0-9-]{4,40}$/.test(v), { message: 'must be a Firebase project id' }),
  FIREBASE_JWKS_URL: optionalUrl(['http://', 'https://']),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: optionalUrl(['http://', 'https://']),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  MAP_TILE_URL: z
    .string()
    .trim()
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png')
    .refine((v) => /^https?:\/\//.test(v) && v.includes('{z}') && v.includes('{x}') && v.includes('{y}'), {
      message: 'must be an http(s) URL template with {z}, {x} and {y}',
    }),
  MODERATION: z.enum(['pre', 'post']).default('pre'),
  /** Seconds an anonymous visitor's shareable page is served from memory (0: no page cache). */
  PAGE_CACHE_SECONDS: intIn(0, 3600, 60),
  JOBS_WORKER: z.enum(['on', 'off']).default('on'),
  WEB_CONCURRENCY: intIn(1, 64, 1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: intIn(0, 10, 0),
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  SEED_DEMO_ADS: z.enum(['true', 'false']).optional(),
  REALTIME_DRIVER: z.enum(['embedded', 'pusher']).default('embedded'),
  REALTIME_APP_ID: z.string().trim().regex(REALTIME_ID, REALTIME_ID_MESSAGE).default('souq'),
  REALTIME_APP_KEY: z.string().trim().regex(REALTIME_ID, REALTIME_ID_MESSAGE).default('souq-key'),
  REALTIME_APP_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 16, { message: 'must be at least 16 characters' }),
  REALTIME_HOST: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:]+\]$/.test(v), {
      message: 'must be a host name, without scheme or port',
    }),
  REALTIME_PORT: intIn(1, 65535, 0),
  REALTIME_SCHEME: z.enum(['http', 'https']).optional(),
  /** What browsers connect to (driver `pusher`), when not the API's host, port and scheme. */
  REALTIME_CLIENT_HOST: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:]+\]$/.test(v), {
      message: 'must be a host name, without scheme or port',
    }),
  REALTIME_CLIENT_PORT: intIn(1, 65535, 0),
  REALTIME_CLIENT_SCHEME: z.enum(['http', 'https']).optional(),
  /** laravel-echo's broadcaster in the browser (app/lib/realtime/config.ts). */
  REALTIME_BROADCASTER: z.enum(['reverb', 'pusher']).default('reverb'),
  REALTIME_MAX_CONNECTIONS: intIn(1, 1_000_000, 10_000),
  REALTIME_MAX_CONNECTIONS_PER_IP: intIn(1, 1_000_000, 100),
  /** `npm run bench` only: an HTML file answered from memory at /__bench/page (the serving limit). */
  BENCH_PAGE_FILE: z.string().trim().optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  appUrl: string | undefined;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  authSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Who receives contact-form messages; empty = every super admin. */
  contactEmails: string[];
  smsProvider: Env['SMS_PROVIDER'];
  /** Gateway URL template ({to}, {text}, {key}) when SMS_PROVIDER=http. */
  smsHttpUrl: string | undefined;
  smsHttpKey: string | undefined;
  /** External sign-in through an OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID, …). */
  oidc: OidcProvider | undefined;
  /** Firebase ID-token sign-in; the JWKS URL defaults to Google's securetoken keys. */
  firebase: { projectId: string; jwksUrl: string | undefined } | undefined;
  storage: Env['STORAGE'];
  mapTileUrl: string;
  moderation: Env['MODERATION'];
  /** Milliseconds a shareable anonymous page stays in the in-memory page cache; 0: off. */
  pageCacheMs: number;
  /** Run the job worker inside the web process (off when `npm run worker` processes do it). */
  jobsWorker: boolean;
  webConcurrency: number;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: number;
  /** Create the demo accounts (never by default in production). */
  seedDemo: boolean;
  /** With the demo accounts, also demo ads into a database without any (SEED_DEMO_ADS, default true). */
  seedDemoAds: boolean;
  /** `npm run bench` only: the HTML file /__bench/page answers from memory (the serving limit). */
  benchPageFile: string | undefined;
  /** Realtime (docs/realtime.md): the embedded Pusher-protocol server, or an external one. */
  realtime: RealtimeConfig;
}

export interface RealtimeConfig {
  /** `embedded`: served by this app at /app/{key} and /apps/{id}; `pusher`: an external Pusher, Soketi or Reverb. */
  driver: Env['REALTIME_DRIVER'];
  appId: string;
  key: string;
  secret: string;
  /** The external server's API host, port and scheme (driver `pusher`); port 0: the scheme's default. */
  host: string | undefined;
  port: number;
  scheme: 'http' | 'https';
  /** Open WebSocket connections per process, and per client address per process. */
  maxConnections: number;
  maxConnectionsPerIp: number;
  /**
   * Where browsers connect (driver `pusher`; the embedded server is the page's own address):
   * REALTIME_CLIENT_* or else the API's host, port and scheme. Port 0: the scheme's default.
   */
  client: { host: string | undefined; port: number; scheme: 'http' | 'https' };
  /** laravel-echo's broadcaster: `reverb` (default) or `pusher` (https only). */
  broadcaster: Env['REALTIME_BROADCASTER'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates `source` (process.env by default); throws ConfigError naming every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STORAGE === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid environment configuration:\n  S3_BUCKET: required when STORAGE=s3');
  }
  if (e.SMS_PROVIDER === 'http' && !e.SMS_HTTP_URL) {
    throw new ConfigError('Invalid environment configuration:\n  SMS_HTTP_URL: required when SMS_PROVIDER=http');
  }
  if (e.REALTIME_DRIVER === 'pusher' && (!e.REALTIME_HOST || !e.REALTIME_APP_SECRET)) {
    throw new ConfigError(
      'Invalid environment configuration:\n  REALTIME_HOST, REALTIME_APP_SECRET: required when REALTIME_DRIVER=pusher',
    );
  }
  // laravel-echo's pusher broadcaster connects over TLS only (app/lib/realtime/config.ts).
  const clientScheme = e.REALTIME_CLIENT_SCHEME ?? e.REALTIME_SCHEME ?? 'https';
  const secureClient =
    e.REALTIME_DRIVER === 'pusher' ? clientScheme === 'https' : (e.APP_URL ?? '').startsWith('https://');
  if (e.REALTIME_BROADCASTER === 'pusher' && !secureClient) {
    throw new ConfigError(
      'Invalid environment configuration:\n  REALTIME_BROADCASTER: pusher needs https (REALTIME_CLIENT_SCHEME or REALTIME_SCHEME with REALTIME_DRIVER=pusher, else an https APP_URL); use reverb otherwise',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  let database: Config['database'];
  const url = e.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) database = { kind: 'postgres', url };
  else if (url) database = { kind: 'sqlite', file: path.resolve(url.replace(/^(sqlite|file):(\/\/)?/, '')) };
  else database = { kind: 'sqlite', file: path.join(dataDir, 'souq.db') };

  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    appUrl: e.APP_URL?.replace(/\/+$/, ''),
    dataDir,
    database,
    redisUrl: e.REDIS_URL,
    authSecret: e.AUTH_SECRET || loadOrCreateSecret(dataDir, 'auth-secret', 32),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmails: e.CONTACT_EMAIL ? e.CONTACT_EMAIL.split(',').map((x) => x.trim()) : [],
    smsProvider: e.SMS_PROVIDER,
    smsHttpUrl: e.SMS_HTTP_URL,
    smsHttpKey: e.SMS_HTTP_KEY || undefined,
    oidc: oidcProviderFromEnv(source),
    firebase: e.FIREBASE_PROJECT_ID ? { projectId: e.FIREBASE_PROJECT_ID, jwksUrl: e.FIREBASE_JWKS_URL } : undefined,
    storage: e.STORAGE,
    mapTileUrl: e.MAP_TILE_URL,
    moderation: e.MODERATION,
    pageCacheMs: e.PAGE_CACHE_SECONDS * 1000,
    jobsWorker: e.JOBS_WORKER === 'on',
    webConcurrency: e.WEB_CONCURRENCY,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    seedDemo: e.SEED_DEMO ? e.SEED_DEMO === 'true' : e.NODE_ENV !== 'production',
    seedDemoAds: e.SEED_DEMO_ADS ? e.SEED_DEMO_ADS === 'true' : true,
    benchPageFile: e.BENCH_PAGE_FILE ? path.resolve(e.BENCH_PAGE_FILE) : undefined,
    realtime: {
      driver: e.REALTIME_DRIVER,
      appId: e.REALTIME_APP_ID,
      key: e.REALTIME_APP_KEY,
      secret: e.REALTIME_APP_SECRET || loadOrCreateSecret(dataDir, 'realtime-secret', 16),
      host: e.REALTIME_HOST || undefined,
      port: e.REALTIME_PORT,
      scheme: e.REALTIME_SCHEME ?? 'https',
      maxConnections: e.REALTIME_MAX_CONNECTIONS,
      maxConnectionsPerIp: e.REALTIME_MAX_CONNECTIONS_PER_IP,
      client: {
        host: e.REALTIME_CLIENT_HOST || e.REALTIME_HOST || undefined,
        port: e.REALTIME_CLIENT_PORT || (e.REALTIME_CLIENT_HOST ? 0 : e.REALTIME_PORT),
        scheme: clientScheme,
      },
      broadcaster: e.REALTIME_BROADCASTER,
    },
  };
}

/**
 * A secret not given in the environment (AUTH_SECRET, REALTIME_APP_SECRET) is generated once into
 * DATA_DIR/`name` and reused on every later start.
 */
function loadOrCreateSecret(dataDir: string, name: string, minLength: number): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length >= minLength) return value;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
