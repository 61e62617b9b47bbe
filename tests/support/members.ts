// A member for HTTP tests that are not about registration: registers through the real form, confirms
// the email in the server's database (what opening the mailed link does) and signs in.
import { expect } from 'vitest';
import type { Browser } from './http-browser.ts';
import { serverSql } from './server-db.ts';

export async function registerAndSignIn(
  b: Browser,
  input: { name: string; email: string; password: string; locale?: 'en' | 'ar' },
): Promise<void> {
  const prefix = input.locale === 'ar' ? '' : '/en';
  const res = await b.post(`${prefix}/register`, {
    name: input.name,
    login: input.email,
    password: input.password,
    password_confirmation: input.password,
    terms: 'on',
  });
  expect(res.status).toBe(302);
  serverSql('update users set email_verified = 1 where email = ? returning id', input.email.toLowerCase());
  const login = await b.post(`${prefix}/login`, { login: input.email, password: input.password });
  expect(login.status).toBe(302);
}

/**
 * A page's HTML with `address` (as typed, and URL-encoded once or twice as links carry it) and the
 * per-request CSP nonce taken out: what two visitors who typed different addresses can compare.
 */
export function withoutAddress(html: string, address: string): string {
  let out = html;
  for (const form of [address, encodeURIComponent(address), encodeURIComponent(encodeURIComponent(address))]) {
    out = out.replaceAll(form, 'ADDRESS');
  }
  return out.replace(/nonce="[^"]*"/g, '').replace(/"nonce":"[^"]*"/g, '');
}
