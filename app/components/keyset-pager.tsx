import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';

/**
 * The links of a list paged by key (`?before=<id>`): back to the newest page once paged, and on to
 * the older page while there is one; nothing when the list fits one page. The words are the page's.
 */
export function KeysetPager({
  base,
  next,
  paged,
  newest,
  older,
}: {
  /** The list's own path, without `before`. */
  base: string;
  /** The `before` of the older page, or null on the last page. */
  next: number | null;
  /** Whether this is a later page (a `before` was given). */
  paged: boolean;
  newest: string;
  older: string;
}) {
  if (next === null && !paged) return null;
  return (
    <Group justify="space-between" gap="sm">
      {paged ? (
        <Anchor component={Link} to={base} py={12}>
          {newest}
        </Anchor>
      ) : (
        <span />
      )}
      {next !== null ? (
        <Anchor component={Link} to={`${base}?before=${next}`} py={12}>
          {older}
        </Anchor>
      ) : null}
    </Group>
  );
}
