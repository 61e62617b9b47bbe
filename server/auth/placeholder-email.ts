// Kept apart from ./index.ts (no dependencies) so the job worker can use it without the app bundle.
import { randomUUID } from 'node:crypto';
import { toBool } from '../db/values.ts';

/**
 * Better Auth needs an email on every user. A member who signs up with a phone number gets one
 * under the reserved `.invalid` top-level domain (RFC 2606): unique, never deliverable, never shown.
 */
export const PLACEHOLDER_EMAIL_DOMAIN = 'phone.souq.invalid';
export const isPlaceholderEmail = (email: string) => email.endsWith(`@${PLACEHOLDER_EMAIL_DOMAIN}`);
export const placeholderEmail = () => `${randomUUID()}@${PLACEHOLDER_EMAIL_DOMAIN}`;

/**
 * Whether mail reaches a member: a confirmed address of their own (phone sign-ups carry a
 * placeholder address of ours that no one reads).
 */
export const receivesMail = (email: string | null | undefined, verified: unknown): email is string =>
  !!email && toBool(verified) && !isPlaceholderEmail(email);
