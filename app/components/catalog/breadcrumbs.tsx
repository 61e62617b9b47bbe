import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';

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
      <MantineBreadcrumbs
        separator={<IconChevronRight size={14} className="mirror-rtl" aria-hidden />}
        separatorMargin={6}
        style={{ flexWrap: 'wrap', rowGap: 4 }}
      >
        {items.map((c, i) =>
          c.href && i < items.length - 1 ? (
            <Anchor key={c.href} component={Link} to={c.href} size="sm" lh="2rem">
              {c.label}
            </Anchor>
          ) : (
            <Text key={c.label} size="sm" lh="2rem" c="dimmed" aria-current="page" dir="auto">
              {c.label}
            </Text>
          ),
        )}
      </MantineBreadcrumbs>
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
