// React Router only sends a route's own headers when the route says so. Form routes use this to
// pass on what their action set for the visitor: `Retry-After` on a 429 (docs/api.md).
import type { HeadersArgs } from 'react-router';

export function actionHeaders({ actionHeaders: fromAction, parentHeaders }: HeadersArgs): Headers {
  const headers = new Headers(parentHeaders);
  const retryAfter = fromAction.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
}
