// Packages and subscriptions (docs/product/back-office.md, "Packages"). A package is what staff
// sell: a price, a duration, and what it adds to the free allowance (server/domain/ads/rules.ts):
// active ads, featured ads, reposts. A subscription is one grant of a package to a holder — a member
// now (`user_id`); `company_id` is there for company grants, without a foreign key until a companies
// table exists (server/domain/packages/subscriptions.ts refuses such grants until then). Its limits
// are copied from the package when granted (a later edit of the package does not change what was
// sold) and its featured ads and reposts are counters that go down as they are used.
// A payment is the money staff recorded for a grant (server/domain/packages/payments.ts), one row per
// method and reference, so the same transfer cannot be recorded twice.
// Indexes: subscriptions by holder and end (the allowance), by end (the expiring reminder), by
// package (the list's filter and "has subscriptions"), and the lists' keyset orders.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, timestampType, withId } from './helpers.ts';

export const name = '0022_packages';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await withId(db.schema.createTable('packages'), d)
    .addColumn('name_ar', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(100)', (c) => c.notNull())
    .addColumn('description_ar', 'text')
    .addColumn('description_en', 'text')
    /** Whole units of `currency`. */
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('duration_days', 'integer', (c) => c.notNull())
    .addColumn('max_active_ads', 'integer', (c) => c.notNull())
    .addColumn('featured_ads', 'integer', (c) => c.notNull())
    .addColumn('reposts', 'integer', (c) => c.notNull())
    /** individual | company */
    .addColumn('audience', 'varchar(20)', (c) => c.notNull())
    .addColumn('active', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, true)))
    .addColumn('created_at', timestampType(d), createdAt(d))
    .addColumn('updated_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema.createIndex('packages_created').on('packages').columns(['created_at', 'id']).execute();

  await withId(db.schema.createTable('payments'), d)
    /** Who recorded it: `staff` (server/domain/packages/payments.ts); a gateway would add its own. */
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    /** offline | bank-transfer */
    .addColumn('method', 'varchar(20)', (c) => c.notNull())
    .addColumn('reference', 'varchar(100)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('recorded_by', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema.createIndex('payments_reference').on('payments').columns(['method', 'reference']).unique().execute();

  await withId(db.schema.createTable('subscriptions'), d)
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer')
    .addColumn('starts_at', timestampType(d), (c) => c.notNull())
    .addColumn('ends_at', timestampType(d), (c) => c.notNull())
    .addColumn('max_active_ads', 'integer', (c) => c.notNull())
    .addColumn('featured_ads', 'integer', (c) => c.notNull())
    .addColumn('reposts', 'integer', (c) => c.notNull())
    .addColumn('featured_remaining', 'integer', (c) => c.notNull())
    .addColumn('reposts_remaining', 'integer', (c) => c.notNull())
    .addColumn('granted_by', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('payment_id', 'integer', (c) => c.references('payments.id'))
    /** When the holder was told it ends soon (once). */
    .addColumn('reminded_at', timestampType(d))
    .addColumn('created_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id', 'ends_at']).execute();
  await db.schema.createIndex('subscriptions_ends').on('subscriptions').columns(['ends_at']).execute();
  await db.schema.createIndex('subscriptions_package').on('subscriptions').columns(['package_id', 'id']).execute();
  await db.schema.createIndex('subscriptions_created').on('subscriptions').columns(['created_at', 'id']).execute();
}
