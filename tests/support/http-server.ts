// Starts the built server (npm run build first) for the HTTP suite; the URL reaches the tests
// through `inject('baseUrl')`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startBuiltServer } from '../../scripts/lib/built-server.ts';
import { startSmtpCapture } from './smtp-capture.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mailDir: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const mailDir = mkdtempSync(path.join(tmpdir(), 'souq-mail-'));
  const smtp = await startSmtpCapture(mailDir);
  // No page cache here: tests change the database behind the server's back (tests/http/page-cache.test.ts
  // starts a server of its own with it).
  const server = await startBuiltServer({
    SEED_DEMO: 'true',
    SMTP_URL: smtp.url,
    TRUST_PROXY: '1',
    PAGE_CACHE_SECONDS: '0',
  });
  project.provide('baseUrl', server.url);
  project.provide('mailDir', mailDir);
  project.provide('dataDir', server.dataDir);
  return async () => {
    await server.stop();
    await smtp.stop();
    rmSync(mailDir, { recursive: true, force: true });
  };
}
