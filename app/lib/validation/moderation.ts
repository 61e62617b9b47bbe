// The moderation forms of the back office (docs/product-notes.md, "Moderation"), on both sides:
// reject (one ad or many), feature until a date, delete, and the bulk form of the queue. Error
// codes are worded in the `admin` namespace (`errors.<field>.<code>`).
import { z } from 'zod';
import { parseId } from '../ids.ts';
import { isRejectionReason, LIBYA_TIME_ZONE, REJECTION_REASONS, type RejectionReason } from '../moderation-codes.ts';
import { oneOf } from '../one-of.ts';
import { acceptedField, field, type Rule, requiredField, rules } from './rules.ts';

export { isRejectionReason, LIBYA_TIME_ZONE, REJECTION_REASONS, type RejectionReason };

/** `ads.rejection_reason` is varchar(500). */
export const REASON_TEXT_MAX = 500;
/** Ads one bulk action may touch (a page of the queue is 20). */
export const BULK_MAX = 100;
/** How far ahead an ad may be featured. */
export const FEATURE_MAX_DAYS = 365;
const LIBYA_OFFSET = '+02:00';

/** Today's date in Libya, `YYYY-MM-DD`. */
export function libyaToday(now = new Date()): string {
  return new Date(now.getTime() + 2 * 3_600_000).toISOString().slice(0, 10);
}

/** The last moment of a Libyan calendar day. */
export const endOfLibyanDay = (day: string) => new Date(`${day}T23:59:59.999${LIBYA_OFFSET}`);

/** A `YYYY-MM-DD` day from today (in Libya) to FEATURE_MAX_DAYS ahead. */
function featureDay(now: () => Date): Rule[] {
  const text = (v: unknown) => (typeof v === 'string' ? v : String(v));
  return [
    rules.date(),
    { code: 'past', check: (v) => text(v) >= libyaToday(now()) },
    {
      code: `too-far:${FEATURE_MAX_DAYS}`,
      check: (v) =>
        new Date(`${text(v)}T00:00:00Z`).getTime() <= Date.parse(libyaToday(now())) + FEATURE_MAX_DAYS * 86_400_000,
    },
  ];
}

/** Reason + free text, the text required for `other`. */
const reasonShape = {
  reason: field<RejectionReason>(rules.oneOf(REJECTION_REASONS)),
  reason_text: field(rules.max(REASON_TEXT_MAX)),
};

function checkReason(v: { reason?: string; reason_text?: string }, ctx: z.RefinementCtx, needed = true) {
  if (!needed) return;
  if (!v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'required' });
  else if (v.reason === 'other' && !v.reason_text) {
    ctx.addIssue({ code: 'custom', path: ['reason_text'], message: 'required' });
  }
}

/** What is stored as the rejection reason: the reason's code, or the text for `other`. */
export function rejectionReasonValue(v: { reason?: string; reason_text?: string }): string {
  return v.reason === 'other' ? (v.reason_text ?? '') : (v.reason ?? '');
}

export const rejectSchema = z.object(reasonShape).superRefine((v, ctx) => checkReason(v, ctx));

export const featureSchema = (now: () => Date = () => new Date()) =>
  z.object({ until: requiredField(...featureDay(now)) });

export const deleteSchema = z.object({ confirm: acceptedField() });

/** Checked ads of the queue: one value or many; digits only, each once. */
const idsField = z.unknown().transform((v, ctx) => {
  const list = (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]).map(parseId);
  if (list.some((id) => id === null)) {
    ctx.addIssue({ code: 'custom', message: 'invalid' });
    return z.NEVER;
  }
  const ids = [...new Set(list as number[])];
  if (ids.length > BULK_MAX) ctx.addIssue({ code: 'custom', message: `max:${BULK_MAX}` });
  return ids;
});

export const BULK_INTENTS = ['bulk-approve', 'bulk-reject'] as const;
export const isBulkIntent = oneOf(BULK_INTENTS);
/** The queue's one form: bulk approve or reject of the checked ads, or a row's own `approve:<id>`. */
export const queueSchema = z
  .object({ intent: z.string(), ids: idsField.optional(), ...reasonShape })
  .superRefine((v, ctx) => {
    if (!isBulkIntent(v.intent)) return;
    if (!v.ids || v.ids.length === 0) ctx.addIssue({ code: 'custom', path: ['ids'], message: 'required' });
    checkReason(v, ctx, v.intent === 'bulk-reject');
  });
