// The filters of a listing as one GET form (./listing.tsx shows it beside the results on wide
// screens and in the phone's sheet): the catalogue, place, price and the category's own attributes.
// It loads after the page (app/lib/lazy-component.tsx): the server renders it in place, so it works
// before and without its script, and it stays out of the listing pages' first-load JavaScript.
import { Button } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Form, Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { FIELD_FILTER_NAMES, FIELD_FILTERS, fieldFilterOn, fieldFilterParameter } from '~/lib/search-filters.ts';
import { SEARCH_CURRENCIES, type SearchQuery, searchString } from '~/lib/search-query.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { FilterAttribute, Listing } from '~/routes/search/listing.server.ts';
import { NoMatch, OPTIONS_SHOWN, OptionSearchBox, ShowMore, useOptionSearch } from './facet-list.tsx';
import classes from './search.module.css';
import suggest from './suggest.module.css';
import { SuggestInput } from './suggest-input.tsx';

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

/**
 * The filters as one GET form: submitting it moves to the listing's canonical URL. `live` (the
 * phone's drawer): its button stays in view at the bottom and counts the ads the filters as set
 * would show, before they are applied.
 */
export default function FiltersForm({
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
