// "Save this search" (docs/product/search.md): a member keeps a query of /posts, named after what it asks for.
// Saving the same query again keeps the one row. Alerts and the list page are not built yet;
// they will read these rows.
import type { DB } from '../../db/index.ts';
import { Invalid } from '../errors.ts';

/** Saved searches a member may keep. */
export const SAVED_SEARCH_LIMIT = 50;

export async function saveSearch(db: DB, userId: string, query: string, name: string): Promise<'saved' | 'existing'> {
  if (query.length > 2000) throw new Invalid({ form: ['search-too-long'] });
  const existing = await db
    .selectFrom('saved_searches')
    .select('id')
    .where('user_id', '=', userId)
    .where('query', '=', query)
    .executeTakeFirst();
  if (existing) return 'existing';
  const count = await db
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= SAVED_SEARCH_LIMIT) throw new Invalid({ form: ['saved-searches-full'] });
  await db
    .insertInto('saved_searches')
    .values({ user_id: userId, name: name.slice(0, 200), query, last_seen_at: new Date() })
    .onConflict((oc) => oc.columns(['user_id', 'query']).doNothing())
    .execute();
  return 'saved';
}
