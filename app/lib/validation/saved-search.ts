// The forms and API inputs of saved searches (docs/product/alerts.md), shared by /searches, the
// API and the server: a name, and how often its alerts come.
import { z } from 'zod';
import { oneOf } from '../one-of.ts';
import { requiredField, rules } from './rules.ts';

/** How often a saved search's new ads are told: at once, in the day's digest, or never. */
export const ALERT_FREQUENCIES = ['instant', 'daily', 'off'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const isAlertFrequency = oneOf(ALERT_FREQUENCIES);

/** A new search's alerts, until the member picks otherwise. */
export const DEFAULT_ALERT_FREQUENCY: AlertFrequency = 'daily';

export const SAVED_SEARCH_NAME_MAX = 120;

export const savedSearchName = () => requiredField(rules.max(SAVED_SEARCH_NAME_MAX));
export const alertFrequency = () => requiredField<AlertFrequency>({ code: 'in', check: (v) => isAlertFrequency(v) });

export const renameSavedSearchSchema = z.object({ name: savedSearchName() });
export const savedSearchFrequencySchema = z.object({ frequency: alertFrequency() });
