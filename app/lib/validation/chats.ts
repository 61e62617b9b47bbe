// The chat forms and API inputs (docs/product/chats.md), shared by browser and server.
import { z } from 'zod';
import { CHAT_MESSAGE_MAX, CHAT_REPORT_REASONS, CLIENT_KEY_PATTERN } from '../chats.ts';
import { PRICE_MAX } from './ads.ts';
import { ID_PARAMETER } from './id.ts';
import { imageFile } from './profile.ts';
import { field, latinDigits, requiredField, rules } from './rules.ts';

/** The idempotency key; optional (a message without one is never de-duplicated). */
export const clientKeyField = z.string().regex(CLIENT_KEY_PATTERN).optional().meta({
  description: 'Idempotency key (8-64 of A-Z a-z 0-9 _ -): a retry with the same key answers the same message',
});

/** A text message. */
export const chatMessageSchema = z.object({
  body: requiredField(rules.max(CHAT_MESSAGE_MAX)),
  client_key: clientKeyField,
});
export type ChatMessageInput = z.output<typeof chatMessageSchema>;

/** A photo's optional caption. */
export const chatCaptionSchema = z.object({
  body: field(rules.max(CHAT_MESSAGE_MAX)),
  client_key: clientKeyField,
});

/** A photo sent from the thread's form (without JavaScript) with its optional caption. */
export const chatPhotoSchema = (maxBytes: number) => chatCaptionSchema.extend({ image: imageFile(maxBytes) });

/** A price offer, in the ad's currency, in whole units. */
export const chatOfferSchema = z.object({
  amount: requiredField<number>(
    // "40,000", "٤٠٬٠٠٠" and "40 000" are forty thousand.
    { code: 'integer', normalise: (v) => latinDigits(String(v)).replace(/[\s,٬']/g, ''), check: () => true },
    rules.numeric(),
    { code: 'min_value:1', check: (v) => Number(v) >= 1 },
    { code: `max_value:${PRICE_MAX}`, check: (v) => Number(v) <= PRICE_MAX, output: (v) => Number(v) },
  ),
  client_key: clientKeyField,
});
export type ChatOfferInput = z.output<typeof chatOfferSchema>;

/** The seller's answer to an offer. */
export const offerAnswerSchema = z.object({
  message_id: ID_PARAMETER,
  decision: z.enum(['accept', 'decline']),
});

/** A report of the other side of a chat. */
export const chatReportSchema = z.object({
  reason: z.enum(CHAT_REPORT_REASONS),
  note: z.string().trim().max(1000).optional(),
});
export type ChatReportInput = z.output<typeof chatReportSchema>;
