// The moderation queue's address (docs/product-notes.md, "Moderation"): filters are GET parameters, so the queue works
// without JavaScript and every view can be linked. Unknown or invalid values are ignored.
import type { AdStatus } from '../../server/db/schema.ts';
import { oneOf } from './one-of.ts';
import { SLUG_PATTERN } from './slug.ts';

/** The queue's tabs, in order (server/domain/moderation.ts QUEUE_STATUSES). */
export const QUEUE_TABS: AdStatus[] = [
  'pending',
  'published',
  'rejected',
  'expired',
  'sold',
  'archived',
  'draft',
  'deleted',
];
const isQueueTab = oneOf(QUEUE_TABS);

/** Statuses an ad may be featured in (a pending ad shows as featured once published). */
export const FEATURABLE: AdStatus[] = ['pending', 'published'];

export interface QueueQuery {
  status: AdStatus;
  /** Taxonomy slug, or '' for all. */
  taxonomy: string;
  /** City slug, or '' for all. */
  city: string;
  reported: boolean;
  /** One member's ads only (their id), or '' for everyone's: the member's page links here. */
  owner: string;
  /** The "Changes" tab: published ads whose owner's edit waits for review (status is then `published`). */
  changes: boolean;
  /** Where the page starts: the opaque cursor of the page before (`after`), or '' for the first page. */
  after: string;
}

export const DEFAULT_QUEUE_QUERY: QueueQuery = {
  status: 'pending',
  taxonomy: '',
  city: '',
  reported: false,
  owner: '',
  changes: false,
  after: '',
};

/**
 * Reads the queue's parameters; a taxonomy or city that is not one of `known` is dropped (without
 * `known`, anything shaped like a slug is kept: the page that shows it checks again).
 */
export function parseQueueQuery(
  params: URLSearchParams,
  known?: { taxonomies: readonly string[]; cities: readonly string[] },
): QueueQuery {
  const status = params.get('status') ?? '';
  const taxonomy = params.get('taxonomy') ?? '';
  const city = params.get('city') ?? '';
  const after = params.get('after') ?? '';
  const reported = params.get('reported');
  const changes = params.get('changes') === '1';
  return {
    status: changes ? 'published' : isQueueTab(status) ? status : 'pending',
    taxonomy: (known ? known.taxonomies.includes(taxonomy) : SLUG_PATTERN.test(taxonomy)) ? taxonomy : '',
    city: (known ? known.cities.includes(city) : SLUG_PATTERN.test(city)) ? city : '',
    reported: reported === '1' || reported === 'on' || reported === 'true',
    owner: /^[\w-]{1,64}$/.test(params.get('owner') ?? '') ? (params.get('owner') as string) : '',
    changes,
    // A cursor is base64url (server/domain/admin/keyset.ts reads it, and ignores one it cannot).
    after: /^[\w-]{1,400}$/.test(after) ? after : '',
  };
}

/** The query string of a queue view (`?status=…`), leaving out defaults; '' for the default view. */
export function queueSearch(query: QueueQuery, over: Partial<QueueQuery> = {}): string {
  const q = { ...query, ...over };
  const params = new URLSearchParams();
  if (q.changes) params.set('changes', '1');
  else if (q.status !== 'pending') params.set('status', q.status);
  if (q.taxonomy) params.set('taxonomy', q.taxonomy);
  if (q.city) params.set('city', q.city);
  if (q.reported) params.set('reported', '1');
  if (q.owner) params.set('owner', q.owner);
  if (q.after) params.set('after', q.after);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** What an action did, shown once after its redirect (`?done=approved&count=2&skipped=1`). */
export const DONE = [
  'approved',
  'rejected',
  'deleted',
  'featured',
  'unfeatured',
  'change-approved',
  'change-rejected',
] as const;
export type Done = (typeof DONE)[number];
const isDone = oneOf(DONE);
export interface DoneNotice {
  done: Done;
  count: number;
  skipped: number;
}

export function parseDone(params: URLSearchParams): DoneNotice | null {
  const done = params.get('done');
  if (!isDone(done)) return null;
  const n = (key: string) => {
    const v = params.get(key) ?? '';
    return /^\d{1,4}$/.test(v) ? Number(v) : 0;
  };
  return { done, count: n('count'), skipped: n('skipped') };
}

/** Appends the notice to a path that may already carry a query. */
export function withDone(path: string, notice: DoneNotice): string {
  const params = new URLSearchParams({ done: notice.done });
  if (notice.count) params.set('count', String(notice.count));
  if (notice.skipped) params.set('skipped', String(notice.skipped));
  return `${path}${path.includes('?') ? '&' : '?'}${params}`;
}
