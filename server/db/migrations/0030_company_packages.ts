// Packages granted to companies (docs/product/back-office.md, "Packages"): a subscription's holder
// is a member (`user_id`) or a company (`company_id`, migration 0022). The company's running
// subscriptions are read by the allowance of every member placing, featuring or reposting for it
// (server/domain/packages/allowance.ts): an index by (company_id, ends_at) as members have by
// (user_id, ends_at). A payment names the company that paid (`payments.company_id`), as it names
// a member; deleting the company keeps the payment (set null) and deletes its subscriptions
// (server/domain/companies/companies.ts, deleteCompany).
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0030_company_packages';

export async function up(db: Kysely<any>, _d: DialectName): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('subscriptions_company').on('subscriptions').columns(['company_id', 'ends_at']).execute();
}
