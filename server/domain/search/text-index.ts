// Keeping the text index's source (`ad_search`, migration 0008) in step with ads: called in the
// transaction that places or edits an ad; the index itself follows (FTS5 triggers on SQLite, a
// generated tsvector on PostgreSQL).
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { normalizeText } from './normalize.ts';

type Tx = Kysely<Database> | Transaction<Database>;

/** The `ad_search` row of an ad: its title and description, normalised. */
export function adSearchRow(adId: number, title: string, description: string): Insertable<Database['ad_search']> {
  return { ad_id: adId, title: normalizeText(title), body: normalizeText(description) };
}

export async function indexAdText(db: Tx, adId: number, title: string, description: string): Promise<void> {
  await db
    .insertInto('ad_search')
    .values(adSearchRow(adId, title, description))
    .onConflict((oc) =>
      oc.column('ad_id').doUpdateSet((eb) => ({ title: eb.ref('excluded.title'), body: eb.ref('excluded.body') })),
    )
    .execute();
}
