// How a package is paid for (docs/product/back-office.md, "Packages"). Payment goes through a
// provider: today the only one is staff recording money they received — cash at the office or a
// bank transfer — with its reference; an online gateway would be another provider with the same
// shape. A payment is one row of `payments`; one method and reference is recorded once, so the
// same transfer cannot pay for two grants (and a double submit grants nothing twice).

import type { Insertable } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { Database, PaymentMethod } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/values.ts';
import type { Actor } from '../ads/rules.ts';
import { Invalid } from '../errors.ts';
import type { Holder } from './allowance.ts';

export interface PaymentInput {
  method: PaymentMethod;
  /** The receipt number or the bank transfer's reference. */
  reference: string;
  /** Whole units of `currency`. */
  amount: number;
  currency: string;
}

export interface RecordedPayment extends PaymentInput {
  id: number;
  provider: string;
}

export interface PaymentProvider {
  /** The provider's name, stored with each payment (`payments.provider`). */
  readonly name: string;
  /**
   * Records that `payer` (a member or a company) paid, in the transaction `trx` of the grant it
   * pays for; refuses (Invalid) a payment it cannot accept. Returns the stored payment.
   */
  record(trx: DB, actor: Actor, payer: Holder, payment: PaymentInput): Promise<RecordedPayment>;
}

/** Money staff received and record by hand: cash (`offline`) or a bank transfer, with its reference. */
export const staffRecordedPayments: PaymentProvider = {
  name: 'staff',
  async record(trx, actor, payer, payment) {
    const reference = payment.reference.trim();
    if (!reference) throw new Invalid({ reference: ['required'] });
    if (!Number.isSafeInteger(payment.amount) || payment.amount < 0) throw new Invalid({ paid_amount: ['integer'] });
    const taken = await trx
      .selectFrom('payments')
      .select('id')
      .where('method', '=', payment.method)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (taken) throw new Invalid({ reference: ['payment-reference-taken'] });
    const row = await insertPayment(trx, {
      provider: 'staff',
      method: payment.method,
      reference,
      amount: payment.amount,
      currency: payment.currency,
      user_id: 'userId' in payer ? payer.userId : null,
      company_id: 'companyId' in payer ? payer.companyId : null,
      recorded_by: actor.id,
    });
    return { ...payment, reference, id: Number(row.id), provider: 'staff' };
  },
};

/** The payment row; the same method and reference written at the same moment by another grant is the same refusal. */
async function insertPayment(trx: DB, values: Insertable<Database['payments']>) {
  try {
    return await trx.insertInto('payments').values(values).returning('id').executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Invalid({ reference: ['payment-reference-taken'] });
    throw error;
  }
}
