// "Message the seller" over real HTTP and SMTP: a visitor is sent to log in, a member's message is
// checked (422 in the page's language, nothing sent), relayed to the seller's inbox without the
// buyer's address, limited (429 with Retry-After), and refused on the seller's own ad (404). An ad
// whose seller lost their phone number is still answered this way.
import { describe, expect, inject, it } from 'vitest';
import { member, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';
import { readMails, waitForMail, waitForMails } from '../support/smtp-capture.ts';

const mailDir = inject('mailDir');
const WORDS = 'Is the Corolla still for sale? I can see it in Tripoli on Saturday.';
const sellerOf = (adId: number) =>
  sql<{ id: string; email: string }>(
    'select u.id, u.email from users u join ads a on a.user_id = u.id where a.id = ?',
    adId,
  )[0] as { id: string; email: string };
/** The address of the member registered last under `prefix` (tests/support/ads.ts names them so). */
const emailOf = (prefix: string) =>
  sql<{ email: string }>(
    'select email from users where email like ? order by created_at desc limit 1',
    `${prefix}-%`,
  )[0]?.email as string;

describe('messages to sellers', () => {
  it('relays a member’s message to the seller by mail, with neither address shown', async () => {
    const owner = await member('message-seller');
    const ad = await placeToyota(owner, 'Toyota Corolla 2015 to message');
    publish(ad.id);
    const seller = sellerOf(ad.id);

    // A visitor is offered to log in, and a post sends them there.
    const visitorPage = await (await browser().get(ad.url)).text();
    expect(visitorPage).toContain('Log in to message the seller');
    const anonymous = await browser().post(ad.url, { intent: 'message', message: WORDS });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe(`/en/login?redirect=${encodeURIComponent(ad.url)}`);

    const buyer = await member('message-buyer');
    const page = await (await buyer.get(ad.url)).text();
    expect(page).toContain('name="intent" value="message"');
    expect(page).not.toContain(seller.email);

    // Refused in words, in the page's language; nothing is sent.
    const short = await buyer.post(ad.url, { intent: 'message', message: 'Hi' });
    expect(short.status).toBe(422);
    expect(await short.text()).toContain('The message field must be at least 10 characters');
    const arabic = await buyer.post(ad.url.replace('/en/', '/'), { intent: 'message', message: '' });
    expect(arabic.status).toBe(422);
    expect(await arabic.text()).toContain('حقل الرسالة');

    const sent = await buyer.post(ad.url, { intent: 'message', message: WORDS });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain('Your message was sent to the seller.');
    const mail = await waitForMail(mailDir, seller.email, /Toyota Corolla 2015 to message/);
    expect(mail.body).toContain(WORDS);
    expect(mail.body).toContain('Member');
    expect(mail.body).not.toContain(emailOf('message-buyer'));
    expect(mail.links.some((l) => l.endsWith(encodeURI(ad.url.replace('/en/', '/'))))).toBe(true);
    // Only that one: the refused posts mailed nothing (the other mail is registration's).
    expect(readMails(mailDir).filter((m) => m.to === seller.email && /to message/.test(m.subject))).toHaveLength(1);

    // The seller cannot write to themselves, and their page has no contact bar (a buyer's has).
    expect((await owner.post(ad.url, { intent: 'message', message: WORDS })).status).toBe(404);
    expect(visitorPage).toContain('data-contact-bar');
    const own = await (await owner.get(ad.url)).text();
    expect(own).not.toContain('data-contact-bar');
    expect(own).not.toContain('name="intent" value="message"');
  });

  it('limits a member to 10 messages an hour', async () => {
    const owner = await member('message-limit-seller');
    const ad = await placeToyota(owner, 'Toyota Corolla 2015 many messages');
    publish(ad.id);
    const seller = sellerOf(ad.id);
    const buyer = await member('message-limit-buyer');
    for (let i = 0; i < 10; i++) {
      expect((await buyer.post(ad.url, { intent: 'message', message: `${WORDS} (${i})` })).status).toBe(200);
    }
    const limited = await buyer.post(ad.url, { intent: 'message', message: WORDS });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('Too many attempts');
    // Another buyer's message is sent after the refused one: once it is in, the refused one would be.
    const other = await member('message-limit-other');
    expect((await other.post(ad.url, { intent: 'message', message: `${WORDS} (other)` })).status).toBe(200);
    const mails = await waitForMails(mailDir, seller.email, /many messages/, 11);
    expect(mails.filter((m) => m.body.includes(`${WORDS} (other)`))).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      readMails(mailDir)
        .filter((m) => m.to === seller.email && /many messages/.test(m.subject))
        .map((m) => /Tripoli on Saturday\. \((\w+)\)/.exec(m.body)?.[1])
        .sort(),
    ).toEqual([...'0123456789'.split(''), 'other'].sort());
  });

  it('still answers an ad whose seller has no phone number', async () => {
    const owner = await member('message-no-phone');
    const ad = await placeToyota(owner, 'Toyota Corolla 2015 email only');
    publish(ad.id);
    const seller = sellerOf(ad.id);
    sql('update users set phone_number = null, phone_number_verified = 0 where id = ? returning id', seller.id);
    const visitor = await (await browser().get(ad.url)).text();
    expect(visitor).not.toContain('Log in to see the phone number');
    expect(visitor).toContain('Log in to message the seller');
    expect(visitor).not.toContain('The seller cannot be reached');
    const buyer = await member('message-no-phone-buyer');
    expect((await buyer.post(ad.url, { intent: 'message', message: WORDS })).status).toBe(200);
    await waitForMail(mailDir, seller.email, /email only/);
  });
});
