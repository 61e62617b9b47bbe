// Granting packages and the subscriptions they make (docs/product/back-office.md, "Packages").
// A grant is one transaction: the payment recorded through the payment provider (./payments.ts),
// the subscription with its own copy of the package's limits, and its revision. A holder is a
// member (`user_id`, packages for individuals) or a company (`company_id`, packages for companies);
// what a company's package adds to its members' allowance is in ./allowance.ts.
import { type SqlBool, sql } from 'kysely';
import type { SubscriptionSort, SubscriptionState } from '../../../app/lib/validation/packages.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toNumber } from '../../db/values.ts';
import { containsAny, decodeCursor, keysetPage, type SortDirection } from '../admin/keyset.ts';
import { type Actor, DAY } from '../ads/rules.ts';
import { recordRevision } from '../audit.ts';
import { Invalid } from '../errors.ts';
import { notify } from '../notifications.ts';
import type { Holder } from './allowance.ts';
import { type PaymentInput, type PaymentProvider, staffRecordedPayments } from './payments.ts';

/** Holders hear this many days before a subscription ends (once). */
export const PACKAGE_REMINDER_DAYS = 3;
export const SUBSCRIPTIONS_PAGE_SIZE = 25;

/** The holder (`userId` or `companyId`), the package and the payment. */
export type GrantInput = Holder & {
  packageId: number;
  payment: PaymentInput;
};

export interface Grant {
  id: number;
  starts_at: string;
  ends_at: string;
}

/**
 * Grants a package to a member or a company, paid as `payment` says (recorded by `provider`, staff
 * by default). The package must be switched on and meant for the holder's kind (individual members
 * or companies). A holder who already holds the same package, still running or waiting to start,
 * gets the new period after the last one (a renewal does not overlap it); any other grant starts
 * now. Refusals are field errors of the grant form (`package_id`, `member`, `company`, `reference`).
 * The revision's subject is the subscription; a company's grant writes one on the company too.
 */
export async function grantPackage(
  db: DB,
  actor: Actor,
  input: GrantInput,
  options: { provider?: PaymentProvider; now?: Date } = {},
): Promise<Grant> {
  const now = options.now ?? new Date();
  const provider = options.provider ?? staffRecordedPayments;
  return withTransaction(db, async (trx) => {
    const pkg = await trx.selectFrom('packages').selectAll().where('id', '=', input.packageId).executeTakeFirst();
    if (!pkg) throw new Invalid({ package_id: ['in'] });
    if (!toBool(pkg.active)) throw new Invalid({ package_id: ['package-inactive'] });
    const holder: Holder = 'companyId' in input ? { companyId: input.companyId } : { userId: input.userId };
    if ('userId' in holder) {
      if (pkg.audience !== 'individual') throw new Invalid({ package_id: ['package-for-companies'] });
      const member = await trx.selectFrom('users').select('id').where('id', '=', holder.userId).executeTakeFirst();
      if (!member) throw new Invalid({ member: ['member-not-found'] });
    } else {
      if (pkg.audience !== 'company') throw new Invalid({ package_id: ['package-for-members'] });
      const company = await trx
        .selectFrom('companies')
        .select('id')
        .where('id', '=', holder.companyId)
        .executeTakeFirst();
      if (!company) throw new Invalid({ company: ['company-not-found'] });
    }

    const latest = await trx
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.max('ends_at').as('ends_at'))
      .$if('userId' in holder, (q) => q.where('user_id', '=', (holder as { userId: string }).userId))
      .$if('companyId' in holder, (q) => q.where('company_id', '=', (holder as { companyId: number }).companyId))
      .where('package_id', '=', input.packageId)
      .where('ends_at', '>', now)
      .executeTakeFirst();
    const startsAt = latest?.ends_at ? new Date(latest.ends_at) : now;
    const endsAt = new Date(startsAt.getTime() + toNumber(pkg.duration_days) * DAY);

    const payment = await provider.record(trx, actor, holder, input.payment);
    const counters = {
      max_active_ads: toNumber(pkg.max_active_ads),
      featured_ads: toNumber(pkg.featured_ads),
      reposts: toNumber(pkg.reposts),
    };
    const row = await trx
      .insertInto('subscriptions')
      .values({
        package_id: input.packageId,
        user_id: 'userId' in holder ? holder.userId : null,
        company_id: 'companyId' in holder ? holder.companyId : null,
        starts_at: startsAt,
        ends_at: endsAt,
        ...counters,
        featured_remaining: counters.featured_ads,
        reposts_remaining: counters.reposts,
        granted_by: actor.id,
        payment_id: payment.id,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordRevision(trx, actor, { type: 'subscription', id }, 'grant', {
      package_id: [null, input.packageId],
      ...('userId' in holder ? { user_id: [null, holder.userId] } : { company_id: [null, holder.companyId] }),
      starts_at: [null, startsAt.toISOString()],
      ends_at: [null, endsAt.toISOString()],
      max_active_ads: [null, counters.max_active_ads],
      featured_ads: [null, counters.featured_ads],
      reposts: [null, counters.reposts],
      payment: [
        null,
        {
          provider: payment.provider,
          method: payment.method,
          reference: payment.reference,
          amount: payment.amount,
          currency: payment.currency,
        },
      ],
    });
    if ('companyId' in holder) {
      // The company's own history shows the grant too (its revisions are what its page links to).
      await recordRevision(trx, actor, { type: 'company', id: holder.companyId }, 'grant-package', {
        subscription_id: [null, id],
        package_id: [null, input.packageId],
        ends_at: [null, endsAt.toISOString()],
      });
    }
    return { id, starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString() };
  });
}

/** The member an email address or phone number (E.164) belongs to, or null. */
export async function findMemberId(db: DB, login: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .$if(login.startsWith('+'), (q) => q.where('phone_number', '=', login))
    .$if(!login.startsWith('+'), (q) => q.where(sql<SqlBool>`lower(email) = ${login.toLowerCase()}`))
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface SubscriptionRow {
  id: number;
  package: { id: number; name_ar: string; name_en: string };
  member: { id: string; name: string; email: string; phone: string | null } | null;
  /** The company holding it (member is then null). */
  company: { id: number; slug: string; name_ar: string; name_en: string } | null;
  starts_at: string;
  ends_at: string;
  state: SubscriptionState;
  max_active_ads: number;
  featured_ads: number;
  featured_remaining: number;
  reposts: number;
  reposts_remaining: number;
  payment: { method: string; reference: string; amount: number; currency: string } | null;
  granted_by: string | null;
  created_at: string;
}

export interface SubscriptionListQuery {
  q: string;
  sort: SubscriptionSort;
  dir: SortDirection;
  /** `package`: a package id; `state`: current | upcoming | ended. */
  filters: Record<string, string>;
  after: string | null;
}

/**
 * One page of subscriptions: searched by the member's name, email or phone, or the company's names
 * or address name; filtered by package and state.
 */
export async function listSubscriptions(db: DB, query: SubscriptionListQuery, now = new Date()) {
  const { q, sort, dir, filters } = query;
  const packageId = filters.package ? Number(filters.package) : null;
  const base = db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('companies as c', 'c.id', 's.company_id')
    .leftJoin('users as g', 'g.id', 's.granted_by')
    .leftJoin('payments as pay', 'pay.id', 's.payment_id')
    .select([
      's.id',
      's.starts_at',
      's.ends_at',
      's.created_at',
      's.max_active_ads',
      's.featured_ads',
      's.featured_remaining',
      's.reposts',
      's.reposts_remaining',
      'p.id as package_id',
      'p.name_ar',
      'p.name_en',
      'u.id as user_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.phone_number as user_phone',
      'c.id as company_id',
      'c.slug as company_slug',
      'c.name_ar as company_ar',
      'c.name_en as company_en',
      'g.name as granted_by',
      'pay.method',
      'pay.reference',
      'pay.amount',
      'pay.currency',
    ])
    .$if(q !== '', (qb) =>
      qb.where(containsAny(['u.name', 'u.email', 'u.phone_number', 'c.name_ar', 'c.name_en', 'c.slug'], q)),
    )
    .$if(packageId !== null, (qb) => qb.where('s.package_id', '=', packageId as number))
    .$if(filters.state === 'current', (qb) => qb.where('s.starts_at', '<=', now).where('s.ends_at', '>', now))
    .$if(filters.state === 'upcoming', (qb) => qb.where('s.starts_at', '>', now))
    .$if(filters.state === 'ended', (qb) => qb.where('s.ends_at', '<=', now));
  const page = await keysetPage(base, {
    column: sort === 'ends' ? 's.ends_at' : 's.created_at',
    id: 's.id',
    direction: dir,
    cursor: decodeCursor(query.after),
    limit: SUBSCRIPTIONS_PAGE_SIZE,
    keyOf: (r) => ({ value: toIso(sort === 'ends' ? r.ends_at : r.created_at), id: Number(r.id) }),
  });
  return {
    rows: page.rows.map((r): SubscriptionRow => {
      const starts = toIso(r.starts_at);
      const ends = toIso(r.ends_at);
      const t = now.toISOString();
      return {
        id: Number(r.id),
        package: { id: Number(r.package_id), name_ar: r.name_ar, name_en: r.name_en },
        member: r.user_id
          ? { id: r.user_id, name: r.user_name ?? '', email: r.user_email ?? '', phone: r.user_phone ?? null }
          : null,
        company:
          r.company_id !== null && r.company_id !== undefined
            ? {
                id: Number(r.company_id),
                slug: r.company_slug ?? '',
                name_ar: r.company_ar ?? '',
                name_en: r.company_en ?? '',
              }
            : null,
        starts_at: starts,
        ends_at: ends,
        state: ends <= t ? 'ended' : starts > t ? 'upcoming' : 'current',
        max_active_ads: toNumber(r.max_active_ads),
        featured_ads: toNumber(r.featured_ads),
        featured_remaining: toNumber(r.featured_remaining),
        reposts: toNumber(r.reposts),
        reposts_remaining: toNumber(r.reposts_remaining),
        payment: r.method
          ? {
              method: r.method,
              reference: r.reference ?? '',
              amount: toNumber(r.amount),
              currency: r.currency ?? '',
            }
          : null,
        granted_by: r.granted_by ?? null,
        created_at: toIso(r.created_at),
      };
    }),
    next: page.next,
  };
}

/**
 * Holders are told once, PACKAGE_REMINDER_DAYS before a subscription that counts now ends (a
 * scheduled job): a `package-expiring` notification naming the package and its end, linking to the
 * profile's "My package" — for a member's subscription the member, for a company's its owners (the
 * profile shows them the company's packages too). Marked in the notification's transaction, so two
 * runs tell once. Returns how many subscriptions were told about.
 */
export async function remindExpiringSubscriptions(db: DB, now = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + PACKAGE_REMINDER_DAYS * DAY);
  const due = await db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .leftJoin('companies as c', 'c.id', 's.company_id')
    .select(['s.id', 's.user_id', 's.company_id', 's.ends_at', 'p.name_ar', 'p.name_en'])
    .select(['c.name_ar as company_ar', 'c.name_en as company_en'])
    .where('s.starts_at', '<=', now)
    .where('s.ends_at', '>', now)
    .where('s.ends_at', '<=', soon)
    .where('s.reminded_at', 'is', null)
    .orderBy('s.ends_at')
    .limit(500)
    .execute();
  let told = 0;
  for (const s of due) {
    await withTransaction(db, async (trx) => {
      const marked = await trx
        .updateTable('subscriptions')
        .set({ reminded_at: now })
        .where('id', '=', s.id)
        .where('reminded_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return;
      const holders = s.user_id
        ? [s.user_id]
        : s.company_id === null
          ? []
          : (
              await trx
                .selectFrom('company_members')
                .select('user_id')
                .where('company_id', '=', s.company_id)
                .where('role', '=', 'owner')
                .orderBy('user_id')
                .execute()
            ).map((m) => m.user_id);
      for (const userId of holders)
        await notify(trx, userId, 'package-expiring', {
          subscription_id: Number(s.id),
          name_ar: s.name_ar,
          name_en: s.name_en,
          expires_at: toIso(s.ends_at),
          path: '/profile#package',
          ...(s.company_id === null ? {} : { company_ar: s.company_ar, company_en: s.company_en }),
        });
      told++;
    });
  }
  return told;
}
