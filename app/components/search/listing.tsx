// A listing of search results (docs/product/search.md), shared by `/posts` and the category pages: result count,
// sort, filters (a side panel on wide screens, a drawer on phones), facet links by category and
// city, the cards, stable page links, an empty state with ways out, and "save this search".
import { Anchor, Button, Stack } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconBookmark, IconMap2, IconSearchOff } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { AdCards, Pager } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { lazyComponent } from '~/lib/lazy-component.tsx';
import {
  defaultSort,
  hasFilters,
  queryWith,
  type SearchQuery,
  SORTS,
  searchParamsOf,
  searchString,
} from '~/lib/search-query.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { Listing } from '~/routes/search/listing.server.ts';
import { AppliedFilters, useAppliedFilters } from './applied-filters.tsx';
import { CategoryChips } from './category-chips.tsx';
import { FacetList } from './facet-list.tsx';
import { FiltersSheet } from './filters-sheet.tsx';
import classes from './search.module.css';

const FiltersForm = lazyComponent(() => import('./filters-form.tsx'));

/** For the listing pages' loaders: the server renders the lazily loaded filters in place. */
export const preloadListing = () => FiltersForm.preload();

/** The listing's own URL for a query (and page): category pages keep their category in the path. */
function useListingHref(listing: Pick<Listing, 'base' | 'scope'>) {
  const { to } = useLocale();
  const onCategoryPage = listing.base !== '/posts';
  return (query: SearchQuery, page = 1) => to(listing.base) + searchString(query, page, { category: onCategoryPage });
}

function useCount() {
  const { t } = useT('search');
  const { locale } = useLocale();
  return (n: number, exact = true) =>
    exact ? t('results', { count: n }) : t('results-more', { n: numberFormat(locale).format(n) });
}

export function SearchListing({ listing, title, signedIn }: { listing: Listing; title: string; signedIn: boolean }) {
  const { t } = useT('search');
  const { to, locale } = useLocale();
  const count = useCount();
  const href = useListingHref(listing);
  const [opened, setOpened] = useState(false);
  const close = () => setOpened(false);
  const { query } = listing;
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location?.pathname === to(listing.base);
  const { filters, clearAll } = useAppliedFilters(listing);
  return (
    <div className={classes.listing}>
      <div className={classes.head}>
        <div>
          <h1 className={classes.title}>{title}</h1>
          <p className={classes.resultCount} role="status" aria-live="polite" data-testid="result-count">
            {count(listing.total, listing.exact)}
          </p>
        </div>
        <div className={classes.actions}>
          <Button
            hiddenFrom="md"
            variant="default"
            radius="xl"
            leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden />}
            rightSection={
              filters.length > 0 ? (
                <span className={classes.badge} aria-hidden data-testid="filters-count">
                  {numberFormat(locale).format(filters.length)}
                </span>
              ) : null
            }
            aria-label={filters.length > 0 ? t('filters-applied', { count: filters.length }) : undefined}
            onClick={() => setOpened(true)}
          >
            {t('filters')}
          </Button>
          <Button
            component={Link}
            to={to('/posts/map') + searchString(query)}
            variant="default"
            radius="xl"
            leftSection={<IconMap2 size={18} aria-hidden />}
          >
            {t('map')}
          </Button>
          <SaveSearch query={query} signedIn={signedIn} />
        </div>
      </div>
      <AppliedFilters filters={filters} clearAll={clearAll} />
      <SortForm listing={listing} />
      <CategoryChips listing={listing} />
      <Facets listing={listing} />
      <div className={classes.body}>
        <aside className={classes.side} aria-label={t('filters')}>
          <Suspense fallback={null}>
            <FiltersForm listing={listing} idPrefix="side" clearAll={clearAll} />
          </Suspense>
        </aside>
        <div aria-busy={busy}>
          {listing.ads.length > 0 ? (
            <section aria-label={t('results-label')}>
              <AdCards ads={listing.ads} label={t('results-label')} now={listing.now} eager={2} />
              <Pager page={listing.page} pages={listing.pages} href={(n) => href(query, n)} />
            </section>
          ) : (
            <NoResults listing={listing} />
          )}
        </div>
      </div>
      <FiltersSheet opened={opened} onClose={close} title={t('filters')} closeLabel={t('close-filters')}>
        <Suspense fallback={null}>
          <FiltersForm listing={listing} idPrefix="drawer" clearAll={clearAll} onSubmit={close} live />
        </Suspense>
      </FiltersSheet>
    </div>
  );
}

/** Sort order: a select that applies at once (a small form: it works without scripts too). */
function SortForm({ listing }: { listing: Listing }) {
  const { t } = useT('search');
  const { to } = useLocale();
  const submit = useSubmit();
  const { query } = listing;
  const params = searchParamsOf({ ...query, sort: defaultSort(query) }, { category: listing.base !== '/posts' });
  return (
    <Form method="get" action={to(listing.base)} className={classes.sort}>
      {[...params].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="sort-order">{t('sort.label')}</label>
      <select
        id="sort-order"
        name="sort"
        className={classes.input}
        value={query.sort}
        onChange={(e) => submit(e.currentTarget.form)}
      >
        {SORTS.filter((s) => s !== 'relevance' || query.q !== null).map((s) => (
          <option key={s} value={s}>
            {t(`sort.${s}`)}
          </option>
        ))}
      </select>
      <noscript>
        <Button type="submit" size="xs" variant="default">
          {t('apply')}
        </Button>
      </noscript>
    </Form>
  );
}

/** One level down the catalogue, and the cities (or the chosen city's areas), with their counts. */
function Facets({ listing }: { listing: Listing }) {
  const { t } = useT('search');
  const { to } = useLocale();
  const href = useListingHref(listing);
  const { query, facets } = listing;
  const onCategoryPage = listing.base !== '/posts';
  const categoryLink = (slug: string) => {
    if (onCategoryPage) {
      const taxonomy = listing.scope.taxonomy?.slug ?? '';
      return to(`/${taxonomy}/${slug}`) + searchString({ ...query, category: slug }, 1, { category: true });
    }
    const isTaxonomy = !query.taxonomy && !query.category;
    return href(isTaxonomy ? { ...query, taxonomy: slug, attributes: {} } : { ...query, category: slug });
  };
  const places = query.city ? facets.areas : facets.cities;
  if (facets.categories.length === 0 && places.length === 0) return null;
  return (
    <div className={classes.facetRows}>
      <FacetList
        label={t('facets.categories')}
        searchLabel={t('find.categories')}
        items={facets.categories.map((f) => ({ ...f, href: categoryLink(f.slug) }))}
      />
      <FacetList
        label={t(query.city ? 'facets.areas' : 'facets.cities')}
        searchLabel={t(query.city ? 'find.areas' : 'find.cities')}
        tone="light"
        items={places.map((f) => {
          const active = query.city ? query.area === f.slug : false;
          const target = query.city
            ? { ...query, area: active ? null : f.slug }
            : { ...query, city: f.slug, area: null };
          return { ...f, href: href(target), current: active };
        })}
      />
    </div>
  );
}

/** Nothing matched: say so, and offer the ways out that usually work. */
function NoResults({ listing }: { listing: Listing }) {
  const { t } = useT('search');
  const { to } = useLocale();
  const href = useListingHref(listing);
  const { query } = listing;
  const actions = [];
  if (hasFilters(query, { text: false })) {
    actions.push({
      label: t('empty.clear-filters'),
      to: href(queryWith({ q: query.q, taxonomy: query.taxonomy, category: query.category })),
    });
  }
  if (query.q && (query.category || query.taxonomy)) {
    actions.push({ label: t('empty.everywhere'), to: to('/posts') + searchString(queryWith({ q: query.q })) });
  }
  return (
    <Stack gap="sm">
      <EmptyState
        icon={<IconSearchOff size={28} aria-hidden />}
        title={t('empty.title')}
        description={query.q ? t('empty.description-text') : t('empty.description')}
        action={actions[0] ?? { label: t('common:place-your-ad'), to: to('/place-your-ad') }}
      />
      {actions.slice(1).map((a) => (
        <Anchor key={a.to} component={Link} to={a.to} ta="center">
          {a.label}
        </Anchor>
      ))}
    </Stack>
  );
}

/** "Save this search": for members (others are asked to sign in first, then come back here). */
function SaveSearch({ query, signedIn }: { query: SearchQuery; signedIn: boolean }) {
  const { t } = useT('search');
  const { to } = useLocale();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save-search';
  const here = to('/posts') + searchString(query);
  if (!signedIn) {
    return (
      <Button
        component={Link}
        to={`${to('/login')}?redirect=${encodeURIComponent(here)}`}
        variant="light"
        radius="xl"
        leftSection={<IconBookmark size={18} aria-hidden />}
      >
        {t('save.button')}
      </Button>
    );
  }
  return (
    <Form method="post" action={here}>
      <input type="hidden" name="intent" value="save-search" />
      <Button
        type="submit"
        variant="light"
        radius="xl"
        loading={saving}
        leftSection={<IconBookmark size={18} aria-hidden />}
      >
        {t('save.button')}
      </Button>
    </Form>
  );
}
