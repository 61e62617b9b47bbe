// The filters a listing applies, as removable chips above its results (docs/product-notes.md,
// "Search and browse"): the text, the category (on `/posts`; a category page is its category), the
// city and area, the price range, each field filter (app/lib/search-filters.ts), each attribute
// option and range. Each chip's × is a link to the canonical URL without that filter, and "clear
// all" keeps only the category page the buyer is on: both work without scripts.
import { IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { FIELD_FILTER_NAMES, FIELD_FILTERS, FIELD_FILTERS_OFF, fieldFilterOn } from '~/lib/search-filters.ts';
import { type AttributeFilter, queryWith, type SearchQuery, searchString } from '~/lib/search-query.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { FilterAttribute, Listing } from '~/routes/search/listing.server.ts';
import classes from './search.module.css';

export interface AppliedFilter {
  /** Unique in the list (the parameter, and the option for attribute options). */
  key: string;
  /** What the chip says, in the page's language. */
  label: string;
  /** User-written text (the search words): shown isolated, in its own direction. */
  userText?: boolean;
  /** The listing's URL without this filter. */
  remove: string;
}

/** The sort a query keeps when its text goes (relevance needs text). */
const sortWithoutText = (query: SearchQuery) => (query.sort === 'relevance' ? 'newest' : query.sort);

/** The filters a listing applies, each with the link that removes it, and the link that removes them all. */
export function useAppliedFilters(listing: Listing): { filters: AppliedFilter[]; clearAll: string } {
  const { t } = useT('search');
  const { locale, to, name } = useLocale();
  const { query, options, scope } = listing;
  const onCategoryPage = listing.base !== '/posts';
  const href = (q: SearchQuery) => to(listing.base) + searchString(q, 1, { category: onCategoryPage });
  const number = numberFormat(locale);
  const filters: AppliedFilter[] = [];
  const add = (key: string, label: string, without: Partial<SearchQuery>, userText = false) =>
    filters.push({ key, label, userText, remove: href({ ...query, ...without }) });

  if (query.q) add('q', t('applied.q', { q: query.q }), { q: null, sort: sortWithoutText(query) }, true);
  if (!onCategoryPage) {
    // The category (or taxonomy) of `/posts`: its attributes go with it.
    const place = query.category ? scope.trail.at(-1) : query.taxonomy ? scope.taxonomy : null;
    if (place) add('category', name(place), { category: null, taxonomy: null, attributes: {} });
  }
  const city = query.city ? options.cities.find((c) => c.slug === query.city) : undefined;
  if (city) add('city', name(city), { city: null, area: null });
  const area = query.area ? options.areas.find((a) => a.slug === query.area) : undefined;
  if (area) add('area', name(area), { area: null });
  if (query.priceMin !== null || query.priceMax !== null) {
    const currency = t(`ads:currency-short.${query.currency}`);
    const min = query.priceMin === null ? null : number.format(query.priceMin);
    const max = query.priceMax === null ? null : number.format(query.priceMax);
    const label =
      min !== null && max !== null
        ? t('applied.price-range', { min, max, currency })
        : min !== null
          ? t('applied.price-from', { min, currency })
          : t('applied.price-to', { max, currency });
    add('price', label, { priceMin: null, priceMax: null, currency: 'LYD' });
  }
  for (const field of FIELD_FILTER_NAMES) {
    if (!fieldFilterOn(query, field)) continue;
    const control = FIELD_FILTERS[field].control;
    const value = query[field];
    const label =
      control.kind === 'check'
        ? t(control.label)
        : t(control.options.find((o) => o.value === String(value))?.label ?? control.label, { count: Number(value) });
    add(field, label, { [field]: FIELD_FILTERS_OFF[field] });
  }
  for (const [key, filter] of Object.entries(query.attributes)) {
    const attribute = options.attributes.find((a) => a.key === key);
    if (!attribute) continue;
    const without = (next: AttributeFilter | null) => {
      const attributes = { ...query.attributes };
      if (next) attributes[key] = next;
      else delete attributes[key];
      return { attributes };
    };
    if (filter.kind === 'options') {
      for (const value of filter.options) {
        const option = attribute.options.find((o) => o.value === value);
        if (!option) continue;
        const rest = filter.options.filter((o) => o !== value);
        add(
          `f.${key}.${value}`,
          locale === 'ar' ? option.ar : option.en,
          without(rest.length > 0 ? { kind: 'options', options: rest } : null),
        );
      }
    } else if (filter.kind === 'bool') {
      add(
        `f.${key}`,
        t('applied.yes-no', { name: name(attribute), value: t(filter.value ? 'yes' : 'no') }),
        without(null),
      );
    } else {
      add(`f.${key}`, rangeLabel(attribute, filter, { t, locale, name }), without(null));
    }
  }
  const clearAll = href(queryWith({ category: onCategoryPage ? query.category : null, sort: sortWithoutText(query) }));
  return { filters, clearAll };
}

/** "Year: 2015–2020", "Mileage (km): 50,000 or more", "Rooms: up to 3". */
function rangeLabel(
  attribute: FilterAttribute,
  range: { min: number | null; max: number | null },
  {
    t,
    locale,
    name,
  }: Pick<ReturnType<typeof useLocale>, 'locale' | 'name'> & {
    t: ReturnType<typeof useT>['t'];
  },
) {
  // Years read without group separators ("2015", not "2,015").
  const number = numberFormat(locale, attribute.type === 'year' ? { useGrouping: false } : undefined);
  const unit = locale === 'ar' ? attribute.unit_ar : attribute.unit_en;
  const label = unit ? `${name(attribute)} (${unit})` : name(attribute);
  const min = range.min === null ? null : number.format(range.min);
  const max = range.max === null ? null : number.format(range.max);
  if (min !== null && max !== null) return t('applied.range', { name: label, min, max });
  return min !== null ? t('applied.range-from', { name: label, min }) : t('applied.range-to', { name: label, max });
}

/** The chips, then "clear all". */
export function AppliedFilters({ filters, clearAll }: { filters: AppliedFilter[]; clearAll: string }) {
  const { t } = useT('search');
  if (filters.length === 0) return null;
  return (
    <section className={classes.applied} aria-label={t('applied.label')} data-testid="applied-filters">
      <ul className={classes.appliedList}>
        {filters.map((f) => (
          <li key={f.key}>
            <Link
              className={classes.appliedChip}
              to={f.remove}
              aria-label={t('applied.remove', { label: f.label })}
              data-filter={f.key}
            >
              {f.userText ? <bdi>{f.label}</bdi> : <span>{f.label}</span>}
              <IconX size={16} aria-hidden className={classes.appliedX} />
            </Link>
          </li>
        ))}
        <li>
          <Link className={classes.clearAll} to={clearAll} data-testid="clear-all">
            {t('applied.clear-all')}
          </Link>
        </li>
      </ul>
    </section>
  );
}
