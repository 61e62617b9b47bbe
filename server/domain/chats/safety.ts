// Safety tips beside messages (docs/product/chats.md, "Safety"): what a message holds that
// swindlers use — a payment phrase (a deposit, a money transfer), a link, a phone number — and
// whether its sender's account is new. Found once, when the message is stored (`flags`), so a tip
// never changes afterwards; the recipient sees a translated tip beside a flagged message.
// Arabic is read as search reads it (app/lib/normalize-text.ts: alef forms, taa marbuta, alef
// maqsura, harakat, Arabic-Indic digits), so عربون, عُربون and عربوناً are one word.
import { SAFETY_FLAGS, type SafetyFlag } from '../../../app/lib/chats.ts';
import { latinDigits } from '../../../app/lib/digits.ts';
import { normalizeText } from '../../../app/lib/normalize-text.ts';

/** An account younger than this is "new" (its messages carry the tip). */
export const NEW_ACCOUNT_DAYS = 7;

/**
 * Payment phrases, as typed; compared word for word after normalisation. Arabic words may carry
 * the clitics و ف ب ل ك and the article in front (بالحوالة, والعربون).
 */
const PAYMENT_PHRASES = [
  // English
  'deposit',
  'down payment',
  'advance payment',
  'pay in advance',
  'pay first',
  'payment first',
  'western union',
  'westernunion',
  'moneygram',
  'money gram',
  'wire transfer',
  'bank transfer',
  'transfer the money',
  'send the money',
  'send money',
  'gift card',
  'itunes card',
  'google play card',
  'bitcoin',
  'crypto',
  'usdt',
  'paypal',
  'payoneer',
  'skrill',
  'escrow',
  'shipping fee',
  'customs fee',
  // Arabic
  'عربون',
  'عربونا',
  'العربون',
  'حوالة',
  'حوالات',
  'حوالتك',
  'حوالة بنكية',
  'تحويل بنكي',
  'تحويل مصرفي',
  'حول المبلغ',
  'حول الفلوس',
  'حوللي',
  'ارسل المبلغ',
  'ابعث المبلغ',
  'ابعتلي الفلوس',
  'دفعة مقدمة',
  'دفع مقدم',
  'ادفع مقدم',
  'مقدما',
  'ويسترن يونيون',
  'وسترن يونيون',
  'ويسترن',
  'موني جرام',
  'موني غرام',
  'مني جرام',
  'بطاقة شحن',
  'كرت شحن',
  'كروت شحن',
  'بيتكوين',
  'عملة رقمية',
  'موبي كاش',
  'سداد',
  'رسوم الشحن',
  'رسوم جمركية',
].map(normalizeText);

const ARABIC = /[\u0600-\u06FF]/;
const CLITICS = '(?:و|ف|ب|ل|ك)?(?:ال)?';
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PAYMENT = new RegExp(
  `(?:^| )(?:${PAYMENT_PHRASES.map((p) => (ARABIC.test(p) ? CLITICS + literal(p) : `${literal(p)}s?`)).join('|')})(?= |$)`,
  'u',
);

/** Addresses and the common short links and messenger links. */
const LINK =
  /(?:https?:\/\/|www\.|\b(?:t\.me|wa\.me|bit\.ly|tinyurl\.com)\/?|\b[a-z0-9-]{2,}\.(?:com|net|org|ly|info|me|io|co|app|link|xyz|site|online|shop|store|biz|top)\b)/i;

/** 9 to 15 digits, maybe after + or 00, with spaces, dots, dashes or brackets between them. */
const PHONE = /(?:\+|\b)\d(?:[\s.()-]{0,2}\d){8,14}\b/;

/** The flags of a message's text (new-account aside), in SAFETY_FLAGS order. */
export function textSafetyFlags(text: string): SafetyFlag[] {
  const found = new Set<SafetyFlag>();
  if (PAYMENT.test(normalizeText(text))) found.add('payment');
  const plain = latinDigits(text).normalize('NFKC');
  if (LINK.test(plain)) found.add('link');
  if (PHONE.test(plain)) found.add('phone');
  return SAFETY_FLAGS.filter((f) => found.has(f));
}

/** Every flag of a message: its text's, and new-account when the sender joined recently. */
export function safetyFlags(text: string, senderCreatedAt: Date, now = new Date()): SafetyFlag[] {
  const flags = textSafetyFlags(text);
  if (now.getTime() - senderCreatedAt.getTime() < NEW_ACCOUNT_DAYS * 86_400_000) flags.push('new-account');
  return SAFETY_FLAGS.filter((f) => flags.includes(f));
}

/** The flags column's text, and back. */
export const flagsText = (flags: readonly SafetyFlag[]) => flags.join(',');
export const flagsOf = (text: string | null | undefined): SafetyFlag[] =>
  (text ?? '').split(',').filter((f): f is SafetyFlag => (SAFETY_FLAGS as readonly string[]).includes(f));
