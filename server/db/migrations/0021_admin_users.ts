// The back office's members and roles screens (docs/product/back-office.md, "Members" and "Roles
// and permissions"):
// - users (created_at, id) and (name, id): the members list pages by keyset in either order;
// - the member search's trigram index (server/db/member-search.ts): on SQLite an FTS5 trigram table
//   `user_search` whose rowid is the user's, kept by triggers on users; on PostgreSQL a pg_trgm GIN
//   index on the lower-cased name, email and phone (the extension is created when the database lets
//   us — pg_trgm is a trusted extension since PostgreSQL 13 — otherwise the search scans);
// - users (banned_at) where banned: the few banned members, read by every public query of ads
//   (`publicOwner`, server/domain/ads/visibility.ts) as a small set;
// - reports (user_id, status): the reports about a member on their page;
// - user_roles (role_id, user_id): who holds a role (the permissions screen, the list's role filter).
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0021_admin_users';

const BODY = (row: 'new' | 'users') =>
  sql.raw(`lower(${row}.name) || ' ' || lower(${row}.email) || ' ' || coalesce(${row}.phone_number, '')`);

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('users_name').on('users').columns(['name', 'id']).execute();
  await db.schema
    .createIndex('users_banned')
    .on('users')
    .column('banned_at')
    .where(sql.ref('banned_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('reports_user').on('reports').columns(['user_id', 'status']).execute();
  await db.schema.createIndex('user_roles_role').on('user_roles').columns(['role_id', 'user_id']).execute();

  if (d === 'sqlite') {
    await sql`create virtual table user_search using fts5(body, tokenize = 'trigram')`.execute(db);
    await sql`insert into user_search (rowid, body) select rowid, ${BODY('users')} from users`.execute(db);
    await sql`create trigger user_search_insert after insert on users begin
      insert into user_search (rowid, body) values (new.rowid, ${BODY('new')}); end`.execute(db);
    await sql`create trigger user_search_update after update of name, email, phone_number on users begin
      update user_search set body = ${BODY('new')} where rowid = new.rowid; end`.execute(db);
    await sql`create trigger user_search_delete after delete on users begin
      delete from user_search where rowid = old.rowid; end`.execute(db);
    return;
  }
  const installable = await sql<{ ok: boolean }>`
    select exists (select 1 from pg_extension where extname = 'pg_trgm')
      or (exists (select 1 from pg_available_extension_versions where name = 'pg_trgm' and (trusted or (select rolsuper from pg_roles where rolname = current_user)))
          and has_database_privilege(current_database(), 'CREATE')) as ok`.execute(db);
  if (!installable.rows[0]?.ok) return;
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  const where = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = where.rows[0]?.schema ?? 'public';
  const ops = sql.raw(`"${schema.replaceAll('"', '""')}".gin_trgm_ops`);
  await sql`create index users_search on users using gin ((lower(name || ' ' || email || ' ' || coalesce(phone_number, ''))) ${ops})`.execute(
    db,
  );
}
