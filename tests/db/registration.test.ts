// Registration on both dialects: a taken email or phone number gets the same answer as a new one,
// its owner a notice (once an hour) in the owner's language, and an email account signs in only
// once its link is opened (docs/accounts.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import {
  type AccountNotices,
  type AuthMeta,
  register,
  requestPasswordReset,
  signIn,
  verifyEmail,
  verifyPhone,
} from '../../server/domain/accounts.ts';
import { Invalid } from '../../server/domain/errors.ts';
import type { MailMessage } from '../../server/mail/index.ts';
import type { SmsMessage } from '../../server/sms/index.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { startMailWorker } from '../support/mail-worker.ts';

const PASSWORD = 'registration-passphrase';
let ip = 0;
/** A fresh client address each time, so the per-IP registration limit stays out of the way. */
const meta = (cookie = ''): AuthMeta => {
  const address = `10.60.0.${++ip}`;
  return { ip: address, headers: new Headers({ cookie, 'x-locale': 'en', 'x-souq-client-ip': address }) };
};
const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof Invalid) return error.errors;
    throw error;
  }
  return undefined;
};
const cookieHeader = (setCookies: string[]) => setCookies.map((c) => c.split(';')[0]).join('; ');

describe.each(dialects)('registration on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let auth: ReturnType<typeof createAuth>;
  const mails: MailMessage[] = [];
  const texts: SmsMessage[] = [];
  let notices: AccountNotices;
  let mailWorker: { stop(): Promise<void> };
  let n = 0;
  const email = () => `reg-${dialect}-${Date.now()}-${++n}@example.ly`;
  const number = () => `+21894${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const mailTo = async (to: string, subject: RegExp) => {
    for (let i = 0; i < 100; i++) {
      const found = mails.filter((m) => m.to === to && subject.test(m.subject));
      if (found.length) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    return [];
  };
  const input = (login: string, locale: 'ar' | 'en' = 'en') => ({ name: 'Amal', login, password: PASSWORD, locale });

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-registration-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      AUTH_SECRET: 'registration-test-secret-0123456789-abcdefgh',
    });
    const sms = { send: async (m: SmsMessage) => void texts.push(m) };
    mailWorker = startMailWorker(t, (m) => void mails.push(m));
    auth = createAuth(config, t, { sms });
    notices = { sms, baseUrl: 'https://souq.example' };
  });
  beforeEach(() => {
    mails.length = 0;
    texts.length = 0;
  });
  afterAll(async () => {
    await mailWorker.stop();
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A member who registered by email in `locale` and opened the link. */
  async function confirmedMember(locale: 'ar' | 'en') {
    const address = email();
    await register(auth, t.db, input(address, locale), meta(), notices);
    const [mail] = await mailTo(address, /./);
    const token = new URL(/https?:\/\/\S+token=\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x').searchParams.get(
      'token',
    );
    await verifyEmail(auth, t.db, token ?? '', new Headers());
    mails.length = 0;
    return address;
  }

  it('answers a taken email like a new one and tells the owner, once an hour', async () => {
    const owner = await confirmedMember('ar');
    const fresh = email();
    expect(await register(auth, t.db, input(owner), meta(), notices)).toEqual([]);
    expect(await register(auth, t.db, input(fresh), meta(), notices)).toEqual([]);
    // The owner hears about it in Arabic, the account's language, with a way in.
    const [notice] = await mailTo(owner, /حاول أحدهم إنشاء حساب/);
    expect(notice?.text).toContain('https://souq.example/login');
    expect(notice?.text).toContain('https://souq.example/account/forget-password');
    expect(mails.filter((m) => m.to === owner)).toHaveLength(1);
    // The new address gets its confirmation link, in the page's language.
    expect(await mailTo(fresh, /Confirm your email/)).toHaveLength(1);
    // One account for the taken address, still with its own password.
    expect(await t.db.selectFrom('users').select('id').where('email', '=', owner).execute()).toHaveLength(1);
    expect(await signIn(auth, t.db, { login: owner, password: PASSWORD, remember: true }, meta())).not.toEqual([]);
    // A second try within the hour sends nothing more.
    expect(await register(auth, t.db, input(owner), meta(), notices)).toEqual([]);
    // A reset asked for afterwards is mailed: a second notice would have been sent before it.
    await requestPasswordReset(auth, t.db, owner, meta());
    expect(await mailTo(owner, /إعادة تعيين كلمة المرور/)).toHaveLength(1);
    expect(mails.filter((m) => m.to === owner && /حاول أحدهم إنشاء حساب/.test(m.subject))).toHaveLength(1);
  });

  it('signs an email account in only once its link is opened', async () => {
    const address = email();
    await register(auth, t.db, input(address), meta(), notices);
    const [mail] = await mailTo(address, /Confirm your email/);
    // The right password before the link: the answer of a wrong one, and the link again.
    const early = await refusal(signIn(auth, t.db, { login: address, password: PASSWORD, remember: true }, meta()));
    expect(early).toEqual({ form: ['invalid-credential'] });
    expect(
      await refusal(signIn(auth, t.db, { login: address, password: 'wrong-passphrase', remember: true }, meta())),
    ).toEqual(early);
    for (let i = 0; i < 50 && mails.filter((m) => m.to === address).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(mails.filter((m) => m.to === address && /Confirm your email/.test(m.subject))).toHaveLength(2);
    const token = new URL(/https?:\/\/\S+token=\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x').searchParams.get(
      'token',
    );
    await verifyEmail(auth, t.db, token ?? '', new Headers());
    const cookies = await signIn(auth, t.db, { login: address, password: PASSWORD, remember: true }, meta());
    expect(cookies.some((c) => c.startsWith('souq.session_token='))).toBe(true);
  });

  it('answers a confirmed number like a new one: a session, no code, a notice to the owner', async () => {
    const owner = await confirmedMember('ar');
    const taken = number();
    await t.db
      .updateTable('users')
      .set({ phone_number: taken, phone_number_verified: true })
      .where('email', '=', owner)
      .execute();
    const fresh = number();
    const takenCookies = await register(auth, t.db, input(taken), meta(), notices);
    const freshCookies = await register(auth, t.db, input(fresh), meta(), notices);
    const names = (cookies: string[]) => cookies.map((c) => c.split('=')[0]);
    expect(names(takenCookies)).toEqual(names(freshCookies));
    expect(names(takenCookies)).toContain('souq.session_token');
    // The new number gets its code in the page's language; the owner a notice in the account's.
    expect(texts.filter((m) => m.to === fresh).map((m) => m.text)).toEqual([expect.stringMatching(/Souq code/)]);
    expect(texts.filter((m) => m.to === taken).map((m) => m.text)).toEqual([
      expect.stringMatching(/^حاول أحدهم استخدام رقمك.*https:\/\/souq\.example\/login$/),
    ]);
    // Every code is wrong for the taken number; it stays the owner's.
    const wrong = await refusal(
      verifyPhone(auth, t.db, { phone: taken, code: '123456' }, meta(cookieHeader(takenCookies))),
    );
    expect(wrong).toEqual({ code: ['invalid-verification-code'] });
    const holders = await t.db.selectFrom('users').select('email').where('phone_number', '=', taken).execute();
    expect(holders).toEqual([{ email: owner }]);
  });
});
