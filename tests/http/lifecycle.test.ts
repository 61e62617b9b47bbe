// Process behaviour: configuration errors, graceful shutdown, a cluster of workers.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { startBuiltServer } from '../../scripts/lib/built-server.ts';

describe('process lifecycle', () => {
  it('refuses to start with a bad variable, naming it', () => {
    const r = spawnSync(process.execPath, ['server/main.ts'], {
      env: { ...process.env, NODE_ENV: 'production', PORT: 'not-a-port', MODERATION: 'sometimes' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PORT');
    expect(r.stderr).toContain('MODERATION');
  });

  it('drains in-flight requests on SIGTERM and exits cleanly', async () => {
    const server = await startBuiltServer();
    const url = new URL('/en/login', server.url);
    const body = new URLSearchParams({ login: 'user@souq.test', password: 'not-the-password' }).toString();
    // A sign-in whose body is held back until the server has the request in hand: "100 Continue"
    // is its answer to the headers, so the request is in flight when SIGTERM comes.
    const request = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        expect: '100-continue',
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Mozilla/5.0',
      },
    });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      request.on('error', reject);
    });
    await new Promise<void>((resolve, reject) => {
      request.once('continue', resolve);
      request.once('error', reject);
    });
    const stopped = server.stop();
    // The rest of the request after the signal: the server still reads it and answers in full.
    request.end(body);
    const res = await answered;
    expect(res.status).toBe(422);
    expect(res.text).toContain('The email, phone number or password is not correct.');
    expect(await stopped).toBe(0);
  });

  it('runs WEB_CONCURRENCY worker processes sharing one port and one database', async () => {
    const server = await startBuiltServer({ WEB_CONCURRENCY: '2' });
    try {
      const pids = new Set<string>();
      // A new connection each time (no keep-alive): the cluster balances connections.
      const workerPid = () =>
        new Promise<string>((resolve, reject) => {
          http
            .get(`${server.url}/healthz`, { agent: false }, (res) => {
              res.resume();
              resolve(String(res.headers['x-worker-pid']));
            })
            .on('error', reject);
        });
      // The second worker may still be starting when the first answers /readyz.
      for (let i = 0; i < 200 && pids.size < 2; i++) {
        pids.add(await workerPid());
        if (pids.size < 2) await new Promise((r) => setTimeout(r, 25));
      }
      expect(pids.size).toBe(2);
      const { data } = await (await fetch(`${server.url}/api/taxonomies`)).json();
      expect(data.length).toBeGreaterThanOrEqual(8);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('keeps a sign-up that cannot be mailed: the account exists, the mail failure is only logged', async () => {
    const server = await startBuiltServer({ SMTP_URL: 'smtp://127.0.0.1:9', LOG_LEVEL: 'silent' });
    try {
      const res = await fetch(`${server.url}/en/register`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          origin: server.url,
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'Mozilla/5.0',
        },
        body: new URLSearchParams({
          name: 'No Mail',
          login: 'no-mail@example.ly',
          password: 'a-passphrase',
          password_confirmation: 'a-passphrase',
          terms: 'on',
        }).toString(),
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/en/account/email-verification?registered=no-mail%40example.ly');
      const db = new DatabaseSync(path.join(server.dataDir, 'souq.db'), { timeout: 5000 });
      try {
        const rows = db.prepare('select email_verified from users where email = ?').all('no-mail@example.ly');
        expect(rows).toEqual([{ email_verified: 0 }]);
      } finally {
        db.close();
      }
    } finally {
      await server.stop();
    }
  });
});
