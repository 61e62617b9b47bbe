// Accounts: the tables Better Auth works on (users, sessions, accounts, verifications; snake_case
// columns), and our roles and permissions.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, timestampType } from './helpers.ts';

export const name = '0002_accounts';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('email_verified', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('image', 'varchar(500)')
    .addColumn('phone_number', 'varchar(20)', (c) => c.unique())
    .addColumn('phone_number_verified', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('locale', 'varchar(5)', (c) => c.notNull().defaultTo('ar'))
    .addColumn('city_id', 'integer', (c) => c.references('cities.id').onDelete('set null'))
    .addColumn('bio', 'varchar(1000)')
    .addColumn('show_phone', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('is_super_admin', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('banned_at', ts)
    .addColumn('ban_reason', 'varchar(500)')
    .addColumn('last_seen_at', ts)
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('user_agent', 'varchar(500)')
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('provider_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('id_token', 'text')
    .addColumn('access_token_expires_at', ts)
    .addColumn('refresh_token_expires_at', ts)
    .addColumn('scope', 'varchar(500)')
    .addColumn('password', 'varchar(255)')
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('accounts_user').on('accounts').column('user_id').execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('identifier', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('verifications_identifier').on('verifications').column('identifier').execute();
}
