import { Card, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { CategoryIcon } from '~/lib/category-icons.tsx';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './catalog.module.css';

export interface Tile {
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  href: string;
  /** Already-translated count line, e.g. "12 categories". */
  caption?: string;
}

/** Tiles with an icon, a name and a count: taxonomies on the home page, subcategories below. */
export function TileGrid({ tiles, label }: { tiles: Tile[]; label: string }) {
  const { name } = useLocale();
  return (
    <ul className={classes.grid} aria-label={label}>
      {tiles.map((tile) => (
        <li key={tile.slug}>
          <Card component={Link} to={tile.href} withBorder radius="lg" padding="md" className={classes.tile}>
            <Stack align="center" gap={6} ta="center">
              <span className={classes.icon}>
                <CategoryIcon name={tile.icon} size={30} />
              </span>
              <Text fw={600} lh={1.35}>
                {name(tile)}
              </Text>
              {tile.caption ? (
                <Text size="sm" c="dimmed">
                  {tile.caption}
                </Text>
              ) : null}
            </Stack>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** A tile's count line of published ads ("12 ads", with the Arabic plural forms). */
export function useAdCountCaption() {
  const { t } = useT('catalog');
  return (ads: number) => t('ads-count', { count: ads });
}
