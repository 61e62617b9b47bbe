import { Alert, Card, Stack, Text } from '@mantine/core';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { OwnerAdActions } from './owner-actions.tsx';

/**
 * The owner's card on their ad's page: what waits for review or keeps the ad from being answered,
 * and their actions. Only the owner sees it, so it loads after the page (app/lib/lazy-component.tsx)
 * and stays out of every visitor's first-load JavaScript.
 */
export default function OwnerPanel({
  ad,
  pendingChange,
  favorites,
}: {
  ad: {
    id: number;
    slug: string;
    status: string;
    taxonomy_slug: string;
    category_slug: string;
    contact: { phone: boolean; whatsapp: boolean; chat: boolean };
  };
  pendingChange: boolean;
  /** How many members saved the ad (docs/product/favorites.md). */
  favorites: number | null;
}) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  return (
    <Card withBorder radius="lg">
      <Stack gap="xs">
        <Text fw={600}>{t('page.yours')}</Text>
        {favorites !== null ? <SavedBy count={favorites} /> : null}
        {pendingChange ? (
          <Alert color="yellow" role="status" title={t('placing:mine.change-pending')}>
            {t('placing:mine.change-pending-hint')}
          </Alert>
        ) : null}
        {!ad.contact.phone && !ad.contact.whatsapp && ['published', 'pending'].includes(ad.status) ? (
          <Alert color="yellow" role="status">
            {t('page.owner-chat-only')}
          </Alert>
        ) : null}
        <OwnerAdActions
          ad={{
            id: ad.id,
            slug: ad.slug,
            status: ad.status,
            taxonomy_slug: ad.taxonomy_slug,
            category_slug: ad.category_slug,
            pending_change: pendingChange,
          }}
          stacked
        />
      </Stack>
    </Card>
  );
}

/** How many members saved the ad (words of the favorites area, which only owners load). */
function SavedBy({ count }: { count: number }) {
  const { t } = useT('favorites');
  return (
    <Text size="sm" c="dimmed" data-testid="ad-favorites">
      {t('saved-by', { count })}
    </Text>
  );
}
