// The form of a report's page in the back office (docs/product/back-office.md, "Reports"), on both
// sides: resolve or dismiss (the button's `intent`) with the staff member's note. Error codes are
// worded in the `admin` namespace (`errors.<field>.<code>`).
import { z } from 'zod';
import { requiredField, rules } from './rules.ts';

/** `reports.resolution_note` is varchar(1000). */
export const RESOLUTION_NOTE_MAX = 1000;
export const REPORT_INTENTS = ['resolve', 'dismiss'] as const;
export type ReportIntent = (typeof REPORT_INTENTS)[number];
export const isReportIntent = (v: unknown): v is ReportIntent =>
  typeof v === 'string' && (REPORT_INTENTS as readonly string[]).includes(v);

export const handleReportSchema = z.object({ note: requiredField(rules.max(RESOLUTION_NOTE_MAX)) });
