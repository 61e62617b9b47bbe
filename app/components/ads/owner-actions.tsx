import { Button, Group, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Form, Link, useSubmit } from 'react-router';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { dates } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';

const ConfirmMoveDialog = lazy(() => import('./confirm-move-dialog.tsx'));

interface OwnedAd {
  id: number;
  slug: string;
  status: string;
  taxonomy_slug: string;
  category_slug: string;
  /** An edit waits for review: the owner may withdraw it. */
  pending_change?: boolean;
  /**
   * Whether a repost is possible now, and from when a bump will be (server/domain/owner-ads.ts).
   * Without it the repost button shows for every published or expired ad and its page says why not.
   */
  repost?: { possible: boolean; from: string | null };
}

/**
 * The owner's actions on one of their ads (docs/product-notes.md, "Owner actions"): edit and repost
 * open their own pages; mark sold, delete and withdrawing a pending change post to `/profile/posts`.
 * Marking sold and deleting ask first: in a dialog when JavaScript runs, else on the page the form
 * posts to (the server refuses them without `confirmed`).
 * `stacked` lays them out full-width, for the ad page's side card; `inList` posts to the page itself
 * (`/profile/posts` with its tab), so the member stays on the tab they were on.
 */
export function OwnerAdActions({
  ad,
  stacked = false,
  inList = false,
}: {
  ad: OwnedAd;
  stacked?: boolean;
  inList?: boolean;
}) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { to, locale } = useLocale();
  const base = to(`/profile/posts/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`);
  const size = 'sm';
  const Layout = stacked ? Stack : Group;
  const submit = useSubmit();
  const [asking, setAsking] = useState<'mark-sold' | 'delete' | null>(null);
  const action = inList ? undefined : to('/profile/posts');
  const confirmed = () => {
    if (!asking) return;
    submit({ id: String(ad.id), intent: asking, confirmed: '1' }, { method: 'post', action });
    setAsking(null);
  };
  const post = (intent: 'mark-sold' | 'delete' | 'withdraw-change', label: string, danger = false) => (
    <Form
      method="post"
      action={action}
      onSubmit={(event) => {
        if (intent === 'withdraw-change') return;
        event.preventDefault();
        setAsking(intent);
      }}
    >
      <input type="hidden" name="id" value={ad.id} />
      <input type="hidden" name="intent" value={intent} />
      <Button
        type="submit"
        size={size}
        variant={danger ? 'subtle' : 'default'}
        color={danger ? 'red' : undefined}
        radius="xl"
        mih={44}
        fullWidth={stacked}
      >
        {label}
      </Button>
    </Form>
  );
  return (
    <Layout gap="xs">
      {ad.status !== 'deleted' ? (
        <Button
          component={Link}
          to={`${base}/edit`}
          size={size}
          variant="default"
          radius="xl"
          mih={44}
          fullWidth={stacked}
        >
          {t('placing:mine.edit')}
        </Button>
      ) : null}
      {ad.status !== 'published' && ad.status !== 'expired' ? null : !ad.repost || ad.repost.possible ? (
        <Button
          component={Link}
          to={`${base}/repost`}
          size={size}
          variant="default"
          radius="xl"
          mih={44}
          fullWidth={stacked}
        >
          {ad.status === 'expired' ? t('page.renew') : t('page.bump')}
        </Button>
      ) : (
        <Text size="sm" c="dimmed" data-testid="repost-later" style={{ alignSelf: 'center' }}>
          {ad.repost.from
            ? t('placing:mine.repost-from', {
                date: dates(locale).date(ad.repost.from),
              })
            : t('placing:mine.renew-needs-room')}
        </Text>
      )}
      {ad.status === 'published' && ad.pending_change
        ? post('withdraw-change', t('placing:mine.withdraw-change'))
        : null}
      {ad.status === 'published' ? post('mark-sold', t('page.mark-sold')) : null}
      {ad.status !== 'deleted' ? post('delete', t('placing:mine.delete'), true) : null}
      {asking ? (
        <Suspense fallback={null}>
          <ConfirmMoveDialog intent={asking} onCancel={() => setAsking(null)} onConfirm={confirmed} />
        </Suspense>
      ) : null}
    </Layout>
  );
}
