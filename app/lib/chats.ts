// Chats' rules that the browser needs too (docs/product/chats.md), apart from their Zod schemas
// (./validation/chats.ts) so the chat pages can say them without loading Zod.

/** The largest photo file a chat takes (before processing): the ad photos' limit (server/media/images.ts). */
export const CHAT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The longest message, in characters. */
export const CHAT_MESSAGE_MAX = 2000;

/** The first messages a buyer may send with one tap; their words are the chats catalogue's `quick.<key>`. */
export const QUICK_REPLIES = ['available', 'final-price', 'where', 'swap'] as const;

/** Why a member reports the other side of a chat, in the order the form lists them. */
export const CHAT_REPORT_REASONS = ['scam', 'offensive', 'spam', 'other'] as const;
export type ChatReportReason = (typeof CHAT_REPORT_REASONS)[number];

/** What a message may hold that the recipient is warned about, best reason first. */
export const SAFETY_FLAGS = ['payment', 'link', 'phone', 'new-account'] as const;
export type SafetyFlag = (typeof SAFETY_FLAGS)[number];

/**
 * The sender's idempotency key of a message: the browser makes one per message (a random UUID),
 * the no-JavaScript form gets one from the page; a retry with the same key is the same message.
 */
export const CLIENT_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Messages a thread shows at once; older ones a page at a time. */
export const THREAD_PAGE_SIZE = 50;

/** The API's catch-up: messages after a cursor, at most this many per call. */
export const CATCH_UP_LIMIT = 100;
