// Shared by the moderation queue and the ad review page: who acts, what they may do, where to go back.
import { localizePath } from '~/i18n/config.ts';
import { type DoneNotice, parseQueueQuery, queueSearch, withDone } from '~/lib/moderation.ts';
import { localeOf } from '~/lib/route.server.ts';
import { can } from '../../../server/domain/access.ts';
import type { SessionUser } from '../../../server/domain/accounts.ts';

/** What the staff member may do here; the pages show only these actions, the actions check again. */
export interface ModerationRights {
  approve: boolean;
  update: boolean;
  delete: boolean;
}

export const rightsOf = (user: SessionUser): ModerationRights => ({
  approve: can(user, 'approve-ads'),
  update: can(user, 'update-ads'),
  delete: can(user, 'delete-ads'),
});

/**
 * The queue view the request came from (its filters travel in the query string, also to the review
 * page), in the request's language, with a notice of what was done. Built from the locale, not
 * from request.url's path: a client-side post arrives at `….data`.
 */
export function queueTarget(request: Request, notice?: DoneNotice): string {
  const query = parseQueueQuery(new URL(request.url).searchParams);
  const path = localizePath('/admin/posts', localeOf(request)) + queueSearch(query);
  return notice ? withDone(path, notice) : path;
}

/** The review page of an ad, keeping the queue's filters, with a notice. */
export function reviewTarget(request: Request, id: number, notice?: DoneNotice): string {
  const query = parseQueueQuery(new URL(request.url).searchParams);
  const path = localizePath(`/admin/posts/${id}`, localeOf(request)) + queueSearch(query);
  return notice ? withDone(path, notice) : path;
}
