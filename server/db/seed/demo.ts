// Demo accounts (README.md, "Quick start"): created in a database that has no users yet, only when asked for
// (SEED_DEMO; `npm start` asks unless NODE_ENV was set by the operator).
import type { Auth } from '../../auth/index.ts';
import { assignRole } from '../../domain/permissions.ts';
import type { DB } from '../index.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.ts';

/** Creates the missing demo accounts; returns the emails created. */
export async function seedDemoAccounts(db: DB, auth: Auth): Promise<string[]> {
  const created: string[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const exists = await db.selectFrom('users').select('id').where('email', '=', account.email).executeTakeFirst();
    if (exists) continue;
    const { user } = await auth.api.signUpEmail({
      body: { name: account.name, email: account.email, password: DEMO_PASSWORD },
    });
    await db
      .updateTable('users')
      .set({
        email_verified: true,
        is_super_admin: account.superAdmin,
        ...(account.phone ? { phone_number: account.phone, phone_number_verified: true } : {}),
      })
      .where('id', '=', user.id)
      .execute();
    if (account.role) await assignRole(db, user.id, account.role);
    created.push(account.email);
  }
  return created;
}
