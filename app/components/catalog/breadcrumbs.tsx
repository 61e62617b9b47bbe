import { Anchor, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import classes from './catalog.module.css';

export interface Crumb {
  label: string;
  href?: string;
}

/** Breadcrumbs; the separator points along the reading direction. Each crumb is a line of 2rem: a
 * tap target of its own, and level with the separators. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const { t } = useT();
  return (
    <nav aria-label={t('breadcrumbs')}>
      <div className={classes.crumbs}>
        {items.map((c, i) => [
          i > 0 ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a separator has nothing else to key by
            <div key={`separator-${i}`} className={classes.separator}>
              <IconChevronRight size={14} className="mirror-rtl" aria-hidden />
            </div>
          ) : null,
          c.href && i < items.length - 1 ? (
            <Anchor key={c.href} component={Link} to={c.href} size="sm" lh="2rem" className={classes.crumb}>
              {c.label}
            </Anchor>
          ) : (
            <Text key={c.label} size="sm" lh="2rem" c="dimmed" aria-current="page" dir="auto" className={classes.crumb}>
              {c.label}
            </Text>
          ),
        ])}
      </div>
    </nav>
  );
}

/** BreadcrumbList JSON-LD for search engines. */
export function breadcrumbJsonLd(origin: string, items: Crumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.label,
      ...(c.href ? { item: origin + c.href } : {}),
    })),
  };
}
