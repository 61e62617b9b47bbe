// A listing of search results (docs/product/search.md), shared by `/posts` and the category pages: result count,
// sort, filters (a side panel on wide screens, a drawer on phones), facet links by category and
// city, the cards, stable page links, an empty state with ways out, and "save this search".
import { Anchor, Button, Stack } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconBookmark, IconMap2, IconSearchOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { AdCards, Pager } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { FIELD_FILTER_NAMES, FIELD_FILTERS, fieldFilterOn, fieldFilterParameter } from '~/lib/search-filters.ts';
import {
  defaultSort,
  hasFilters,
  queryWith,
  SEARCH_CURRENCIES,
  type SearchQuery,
  SORTS,
  searchParamsOf,
  searchString,
} from '~/lib/search-query.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { FilterAttribute, Listing } from '~/routes/search/listing.server.ts';
import { AppliedFilters, useAppliedFilters } from './applied-filters.tsx';
import { CategoryChips } from './category-chips.tsx';
import { FacetList, NoMatch, OPTIONS_SHOWN, OptionSearchBox, ShowMore, useOptionSearch } from './facet-list.tsx';
import { FiltersSheet } from './filters-sheet.tsx';
import classes from './search.module.css';
import suggest from './suggest.module.css';
import { SuggestInput } from './suggest-input.tsx';

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
          <FiltersForm listing={listing} idPrefix="side" clearAll={clearAll} />
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
        <FiltersForm listing={listing} idPrefix="drawer" clearAll={clearAll} onSubmit={close} live />
      </FiltersSheet>
    </div>
  );
}

/** A labelled native select (a visible label, or only an accessible name). */
function SelectField({
  id,
  name,
  label,
  hiddenLabel = false,
  defaultValue,
  options,
}: {
  id: string;
  name: string;
  label: string;
  hiddenLabel?: boolean;
  defaultValue: string;
  options: { value: string; label: string }[];
}) {
  return (
    <div className={classes.field}>
      {hiddenLabel ? null : (
        <label className={classes.label} htmlFor={id}>
          {label}
        </label>
      )}
      <select
        id={id}
        name={name}
        className={classes.input}
        defaultValue={defaultValue}
        aria-label={hiddenLabel ? label : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
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

/**
 * The filters as one GET form: submitting it moves to the listing's canonical URL. `live` (the
 * phone's drawer): its button stays in view at the bottom and counts the ads the filters as set
 * would show, before they are applied.
 */
function FiltersForm({
  listing,
  idPrefix,
  clearAll,
  onSubmit,
  live = false,
}: {
  listing: Listing;
  idPrefix: string;
  clearAll: string;
  onSubmit?: () => void;
  live?: boolean;
}) {
  const { t } = useT('search');
  const { to, name } = useLocale();
  const liveCount = useLiveCount(listing);
  const { query, options } = listing;
  const onCategoryPage = listing.base !== '/posts';
  const id = (s: string) => `${idPrefix}-${s}`;
  /** A choice of catalogue entries (taxonomy, city, area) by slug, "any" (no filter) first. */
  const catalogueSelect = (
    field: 'taxonomy' | 'city' | 'area',
    any: string,
    items: { slug: string; name_ar: string; name_en: string }[],
  ) => (
    <SelectField
      id={id(field)}
      name={field}
      label={t(`fields.${field}`)}
      defaultValue={query[field] ?? ''}
      options={[{ value: '', label: any }, ...items.map((x) => ({ value: x.slug, label: name(x) }))]}
    />
  );
  return (
    <Form
      method="get"
      action={to(listing.base)}
      onSubmit={onSubmit}
      onChange={live ? (e) => liveCount.recount(e.currentTarget) : undefined}
      key={searchString(query)}
      className={classes.form}
    >
      <div className={classes.field}>
        <label className={classes.label} htmlFor={id('q')}>
          {t('fields.q')}
        </label>
        <div className={suggest.anchor}>
          <SuggestInput id={id('q')} className={classes.input} defaultValue={query.q ?? ''} enterKeyHint="search" />
        </div>
      </div>
      {query.sort !== 'newest' ? <input type="hidden" name="sort" value={query.sort} /> : null}
      {onCategoryPage ? null : query.category ? (
        <input type="hidden" name="category" value={query.category} />
      ) : (
        catalogueSelect('taxonomy', t('any'), options.taxonomies)
      )}
      {catalogueSelect('city', t('any-city'), options.cities)}
      {options.areas.length > 0 ? catalogueSelect('area', t('any'), options.areas) : null}
      <fieldset className={classes.field}>
        <legend className={classes.label}>{t('fields.price')}</legend>
        <div className={classes.pair}>
          <RangeInputs
            id={id('price')}
            names={['price_min', 'price_max']}
            labels={[t('fields.price-min'), t('fields.price-max')]}
            placeholders={[t('min'), t('max')]}
            values={[query.priceMin, query.priceMax]}
          />
          <SelectField
            id={id('currency')}
            name="currency"
            label={t('fields.currency')}
            hiddenLabel
            defaultValue={query.currency}
            options={SEARCH_CURRENCIES.map((c) => ({ value: c, label: t(`ads:currency-short.${c}`) }))}
          />
        </div>
      </fieldset>
      {options.attributes.map((a) => (
        <AttributeField key={a.key} attribute={a} query={query} id={id(`f-${a.key}`)} />
      ))}
      {/* The filters on fields of the ad (app/lib/search-filters.ts): choices first, then switches. */}
      {FIELD_FILTER_NAMES.map((name) => {
        const control = FIELD_FILTERS[name].control;
        if (control.kind !== 'select') return null;
        return (
          <SelectField
            key={name}
            id={id(name)}
            name={name}
            label={t(control.label)}
            defaultValue={fieldFilterParameter(query, name)}
            options={[
              { value: '', label: t(control.any) },
              ...control.options.map((o) => ({ value: o.value, label: t(o.label, { count: o.count }) })),
            ]}
          />
        );
      })}
      {FIELD_FILTER_NAMES.map((name) => {
        const control = FIELD_FILTERS[name].control;
        if (control.kind !== 'check') return null;
        return (
          <label key={name} className={classes.check}>
            <input
              id={id(name)}
              type="checkbox"
              name={name}
              value={control.value}
              defaultChecked={fieldFilterOn(query, name)}
            />
            {t(control.label)}
          </label>
        );
      })}
      <div className={live ? classes.submitBar : classes.submit}>
        <Button type="submit" radius="xl" fullWidth={live} aria-busy={live && liveCount.busy}>
          {live ? liveCount.label : t('apply')}
        </Button>
        {listing.filtered ? (
          <Link className={classes.link} to={clearAll}>
            {t('clear')}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * The count of ads the drawer's form would show as it is set: asked of `GET /api/posts` a moment
 * after each change (the last answer wins); the listing's own count until something changes, and
 * the plain "Show results" when the count cannot be had.
 */
function useLiveCount(listing: Listing) {
  const { t } = useT('search');
  const { locale } = useLocale();
  // The answer, with the listing it was counted over: a new listing (the filters applied, or
  // another page) shows its own count again.
  const [live, setLive] = useState<{ of: Listing; count: { total: number; exact: boolean } | 'unknown' } | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const asking = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      asking.current?.abort();
    },
    [],
  );
  const recount = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const params = new URLSearchParams();
      for (const [key, value] of new FormData(form)) {
        if (typeof value === 'string' && value.trim() !== '') params.append(key, value);
      }
      // A category page's category is its path, not a field of the form.
      if (listing.base !== '/posts' && listing.query.category) params.set('category', listing.query.category);
      asking.current?.abort();
      const controller = new AbortController();
      asking.current = controller;
      setBusy(true);
      try {
        const res = await fetch(`/api/posts?${params}`, { signal: controller.signal });
        const body = res.ok ? ((await res.json()) as { meta: { total: number; total_exact: boolean } }) : null;
        setLive({ of: listing, count: body ? { total: body.meta.total, exact: body.meta.total_exact } : 'unknown' });
      } catch {
        if (!controller.signal.aborted) setLive({ of: listing, count: 'unknown' });
      } finally {
        if (asking.current === controller) setBusy(false);
      }
    }, LIVE_COUNT_DELAY);
  };
  const shown = live?.of === listing ? live.count : { total: listing.total, exact: listing.exact };
  const label =
    shown === 'unknown'
      ? t('apply')
      : shown.exact
        ? t('show-results', { count: shown.total })
        : t('show-results-more', { n: numberFormat(locale).format(shown.total) });
  return { recount, label, busy };
}

/** How long the drawer waits after a change before it counts (typing a price is several changes). */
const LIVE_COUNT_DELAY = 300;

function AttributeField({ attribute: a, query, id }: { attribute: FilterAttribute; query: SearchQuery; id: string }) {
  const { t } = useT('search');
  const { locale, name } = useLocale();
  const search = useOptionSearch();
  const f = query.attributes[a.key];
  const unit = locale === 'ar' ? a.unit_ar : a.unit_en;
  const label = unit ? `${name(a)} (${unit})` : name(a);
  if (a.type === 'select' || a.type === 'multiselect') {
    const chosen = f?.kind === 'options' ? f.options : [];
    // A long list: the first options (and those chosen), the rest behind "show more"; typing
    // narrows it. Every checkbox stays in the form, shown or not.
    const long = a.options.length > OPTIONS_SHOWN;
    const shown = a.options.filter((o, i) => !long || i < OPTIONS_SHOWN || chosen.includes(o.value));
    const rest = a.options.filter((o) => !shown.includes(o));
    const matching = a.options.filter((o) => !search.searching || search.matches(o.ar, o.en));
    const option = (o: FilterAttribute['options'][number]) => (
      <label key={o.value} className={classes.check} hidden={!matching.includes(o)}>
        <input
          id={`${id}-${o.value}`}
          type="checkbox"
          name={`f.${a.key}`}
          value={o.value}
          defaultChecked={chosen.includes(o.value)}
        />
        {locale === 'ar' ? o.ar : o.en}
      </label>
    );
    return (
      <fieldset className={classes.field} id={id}>
        <legend className={classes.label}>{label}</legend>
        {long ? <OptionSearchBox search={search} label={t('find.options', { name: name(a) })} /> : null}
        <div className={classes.options}>{shown.map(option)}</div>
        {rest.length > 0 ? (
          <ShowMore count={rest.length} open={search.searching}>
            <div className={classes.options}>{rest.map(option)}</div>
          </ShowMore>
        ) : null}
        {matching.length === 0 ? <NoMatch /> : null}
      </fieldset>
    );
  }
  if (a.type === 'boolean') {
    return (
      <SelectField
        id={id}
        name={`f.${a.key}`}
        label={label}
        defaultValue={f?.kind === 'bool' ? (f.value ? '1' : '0') : ''}
        options={[
          { value: '', label: t('any') },
          { value: '1', label: t('yes') },
          { value: '0', label: t('no') },
        ]}
      />
    );
  }
  const range = f?.kind === 'range' ? f : { min: null, max: null };
  return (
    <fieldset className={classes.field}>
      <legend className={classes.label}>{label}</legend>
      <div className={classes.pair}>
        <RangeInputs
          id={id}
          names={[`f.${a.key}.min`, `f.${a.key}.max`]}
          labels={[t('range-min', { name: name(a) }), t('range-max', { name: name(a) })]}
          placeholders={[a.min !== null ? String(a.min) : t('min'), a.max !== null ? String(a.max) : t('max')]}
          values={[range.min, range.max]}
        />
      </div>
    </fieldset>
  );
}

/** A from–to pair of number boxes (`<id>-min`, `<id>-max`), each named for screen readers. */
function RangeInputs({
  id,
  names,
  labels,
  placeholders,
  values,
}: {
  id: string;
  names: [string, string];
  labels: [string, string];
  placeholders: [string, string];
  values: [number | null, number | null];
}) {
  return (['min', 'max'] as const).map((end, i) => (
    <input
      key={end}
      id={`${id}-${end}`}
      name={names[i]}
      className={classes.input}
      inputMode="numeric"
      aria-label={labels[i]}
      placeholder={placeholders[i]}
      defaultValue={values[i] ?? ''}
    />
  ));
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
