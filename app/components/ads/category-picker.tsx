import { Anchor, NavLink, Skeleton, Stack, VisuallyHidden } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';

export interface PickerCategory {
  slug: string;
  name_ar: string;
  name_en: string;
  children_count: number;
}

// Children fetched once per category and kept for the page's life; a failed fetch is an empty list
// (docs/product/site.md: the picker stays usable, with nothing to pick, rather than an error).
const cache = new Map<string, Promise<PickerCategory[]>>();
function childrenOf(slug: string, locale: string): Promise<PickerCategory[]> {
  let found = cache.get(slug);
  if (!found) {
    found = fetch(`/api/categories/${encodeURIComponent(slug)}/children`, { headers: { 'x-locale': locale } })
      .then((r) => (r.ok ? r.json() : { data: [] }))
      .then((body: { data?: PickerCategory[] }) => body.data ?? [])
      .catch(() => []);
    cache.set(slug, found);
  }
  return found;
}

/**
 * The drill-down of place-your-ad. Every item is a link (the next level, or the form for a leaf),
 * so it works without JavaScript; with it, a category with children opens in place.
 */
export function CategoryPicker({ base, categories }: { base: string; categories: PickerCategory[] }) {
  return (
    <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {categories.map((c) => (
        <li key={c.slug}>
          <PickerItem base={base} category={c} />
        </li>
      ))}
    </Stack>
  );
}

/** The next level's rows while they load: as many as the category has children, at most four. */
function PickerSkeleton({ count }: { count: number }) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  return (
    <Stack gap={2} py={4} aria-busy="true" data-testid="picker-skeleton">
      <VisuallyHidden>{t('placing:place.loading-categories')}</VisuallyHidden>
      {Array.from({ length: Math.min(4, Math.max(1, count)) }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing else
        <Skeleton key={i} h={44} radius="sm" aria-hidden />
      ))}
    </Stack>
  );
}

function PickerItem({ base, category }: { base: string; category: PickerCategory }) {
  const { locale, name } = useLocale();
  const [open, setOpen] = useState(false);
  const [children, setChildren] = useState<PickerCategory[] | null>(null);
  const href = `${base}/${category.slug}`;
  const Chevron = locale === 'ar' ? IconChevronLeft : IconChevronRight;
  if (category.children_count === 0) {
    return (
      <NavLink component={Link} to={href} label={name(category)} rightSection={<Chevron size={16} aria-hidden />} />
    );
  }
  return (
    <>
      <NavLink
        component="a"
        href={href}
        label={name(category)}
        opened={open}
        aria-expanded={open}
        onClick={(event) => {
          event.preventDefault();
          if (!open && children === null) childrenOf(category.slug, locale).then(setChildren);
          setOpen(!open);
        }}
        childrenOffset={0}
        rightSection={<Chevron size={16} aria-hidden />}
      />
      {open && children === null ? (
        <div style={{ paddingInlineStart: 'var(--mantine-spacing-md)' }}>
          <PickerSkeleton count={category.children_count} />
        </div>
      ) : null}
      {open && children ? (
        <div style={{ paddingInlineStart: 'var(--mantine-spacing-md)' }}>
          {children.length ? (
            <CategoryPicker base={href} categories={children} />
          ) : (
            <Anchor component={Link} to={href} size="sm" p="xs">
              {name(category)}
            </Anchor>
          )}
        </div>
      ) : null}
    </>
  );
}
