// A company's public page (docs/product/companies.md): its published ads, newest (last bumped)
// first, a page at a time, read through the (company_id, status, bumped_at) index.
import type { DB } from '../../db/index.ts';
import { toNumber } from '../../db/values.ts';
import { type AdCard, cardsOf, publishedCards } from '../ads/cards.ts';

/** Ads per page of a company's page (as a member's page). */
export const COMPANY_PAGE_SIZE = 24;

export async function listCompanyAds(
  db: DB,
  companyId: number,
  page: number,
): Promise<{ ads: AdCard[]; total: number; pages: number }> {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('ads')
      .where('ads.company_id', '=', companyId)
      .where('ads.status', '=', 'published')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    publishedCards(db)
      .where('ads.company_id', '=', companyId)
      .orderBy('ads.bumped_at', 'desc')
      .orderBy('ads.id', 'desc')
      .limit(COMPANY_PAGE_SIZE)
      .offset((page - 1) * COMPANY_PAGE_SIZE)
      .execute(),
  ]);
  const total = toNumber(count.n);
  return { ads: await cardsOf(db, rows), total, pages: Math.max(1, Math.ceil(total / COMPANY_PAGE_SIZE)) };
}
