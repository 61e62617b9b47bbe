// Phone reveals (docs/product/ads.md: reveals are counted): in total on the ad and per day beside its
// views, for the owner's performance figures.
import type { Kysely } from 'kysely';

export const name = '0007_phone_reveals';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ads')
    .addColumn('phone_reveals', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ad_views')
    .addColumn('phone_reveals', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
