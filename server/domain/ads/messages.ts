// "Message the seller" (docs/product/ads.md, "Contact options"): a signed-in buyer's words relayed
// to the seller by email through the mail jobs. Neither address reaches the other side: the mail
// names the buyer and carries no Reply-To, and the buyer never learns the seller's address.
import { isLocale, type Locale } from '../../../app/i18n/config.ts';
import { type SellerMessageInput, sellerMessageSchema } from '../../../app/lib/validation/ads.ts';
import { isPlaceholderEmail } from '../../auth/placeholder-email.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool } from '../../db/values.ts';
import { enqueue } from '../../jobs/registry.ts';
import { mailJob } from '../../mail/outbox.ts';
import { sellerMessageMail } from '../../mail/templates.ts';
import { Invalid, NotFound } from '../errors.ts';
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts';

/** Messages a member may send to sellers per hour (all ads together). */
export const SELLER_MESSAGE_LIMIT: RateLimitRule = { name: 'seller-message', limit: 10, windowSeconds: 60 * 60 };

/**
 * Whether mail reaches a member: a confirmed address of their own (phone sign-ups carry a
 * placeholder address of ours that no one reads).
 */
export const receivesMail = (email: string | null | undefined, verified: unknown): email is string =>
  !!email && toBool(verified) && !isPlaceholderEmail(email);

/**
 * Relays a buyer's message to the seller of a published ad. NotFound when the ad is not published,
 * its seller is gone or banned, mail does not reach the seller, or the buyer is the seller; Invalid
 * for a message the form's rules refuse; TooManyRequests past SELLER_MESSAGE_LIMIT. The mail is a
 * `send-mail` job, in the seller's language, linking to the ad (`adUrl` of that language).
 */
export async function messageSeller(
  db: DB,
  input: { adId: number; buyerId: string; adUrl: (locale: Locale) => string },
  form: unknown,
  now = new Date(),
): Promise<void> {
  const parsed = sellerMessageSchema.safeParse(form);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= [issue.message];
    throw new Invalid(errors);
  }
  const { message }: SellerMessageInput = parsed.data;
  const ad = await db
    .selectFrom('ads')
    .innerJoin('users', 'users.id', 'ads.user_id')
    .select([
      'ads.title',
      'ads.status',
      'users.id as seller_id',
      'users.name as seller_name',
      'users.email',
      'users.email_verified',
      'users.locale',
      'users.banned_at',
    ])
    .where('ads.id', '=', input.adId)
    .executeTakeFirst();
  if (
    ad?.status !== 'published' ||
    ad.banned_at ||
    ad.seller_id === input.buyerId ||
    !receivesMail(ad.email, ad.email_verified)
  ) {
    throw new NotFound('errors.not-found');
  }
  const buyer = await db.selectFrom('users').select('name').where('id', '=', input.buyerId).executeTakeFirst();
  if (!buyer) throw new NotFound('errors.not-found');
  await hitRateLimit(db, SELLER_MESSAGE_LIMIT, input.buyerId, now.getTime());
  const locale: Locale = isLocale(ad.locale) ? ad.locale : 'ar';
  const mail = sellerMessageMail(locale, ad.email, {
    sellerName: ad.seller_name,
    buyerName: buyer.name,
    adTitle: ad.title,
    adUrl: input.adUrl(locale),
    message,
  });
  await withTransaction(db, async (tx) => {
    await enqueue(tx, 'send-mail', mailJob('seller-message', mail));
  });
}
