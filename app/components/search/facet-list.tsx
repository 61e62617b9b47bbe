// Long lists of options on a listing (docs/product-notes.md, "Search and browse"). A facet row —
// the categories one level down (makes, models), the cities, or the city's areas — with their
// counts: options without ads are left out (the one chosen stays, first); past OPTIONS_SHOWN the
// rest wait behind "show more (N)", a native disclosure that opens without scripts. A long list
// (here, or an attribute's options in the filters panel) can be narrowed by typing, Arabic-aware
// (app/lib/normalize-text.ts) and in either language.
import { IconChevronDown } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { normalizeText } from '~/lib/normalize-text.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './search.module.css';

/** Options shown before "show more". */
export const OPTIONS_SHOWN = 8;

/**
 * Narrowing a list by typing: the text, and whether an option (by its names) matches it. The box
 * is offered once the page runs scripts (`scripted`): without them it could not narrow anything.
 */
export function useOptionSearch() {
  const [text, setText] = useState('');
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const wanted = normalizeText(text);
  return {
    text,
    setText,
    scripted,
    searching: wanted !== '',
    matches: (...names: string[]) => normalizeText(names.join(' ')).includes(wanted),
  };
}

/** The box that narrows a list (named "Search cities"…), shown once scripts run. */
export function OptionSearchBox({ search, label }: { search: ReturnType<typeof useOptionSearch>; label: string }) {
  if (!search.scripted) return null;
  return (
    <input
      type="search"
      className={`${classes.input} ${classes.optionSearch}`}
      value={search.text}
      onChange={(e) => search.setText(e.currentTarget.value)}
      aria-label={label}
      placeholder={label}
      autoComplete="off"
    />
  );
}

/** "Show more (N)", opening `children`; open while a search narrows the list (`open`). */
export function ShowMore({ count, open, children }: { count: number; open?: boolean; children: ReactNode }) {
  const { t } = useT('search');
  const { locale } = useLocale();
  return (
    <details className={classes.more} open={open || undefined}>
      <summary className={classes.moreToggle}>
        {t('more', { n: numberFormat(locale).format(count) })}
        <IconChevronDown size={16} aria-hidden className={classes.moreIcon} />
      </summary>
      {children}
    </details>
  );
}

/** Nothing in the list matches the typed text. */
export function NoMatch() {
  const { t } = useT('search');
  return (
    <p className={classes.noMatch} role="status">
      {t('no-match')}
    </p>
  );
}

export interface FacetItem {
  slug: string;
  name_ar: string;
  name_en: string;
  count: number;
  href: string;
  /** The option the query has chosen (shown even without ads, first). */
  current?: boolean;
}

export function FacetList({
  label,
  searchLabel,
  items,
  tone,
}: {
  /** What the options are ("Cities"): the list's name. */
  label: string;
  /** The search box's name ("Search cities"). */
  searchLabel: string;
  items: FacetItem[];
  tone?: 'light';
}) {
  const { name, locale } = useLocale();
  const n = numberFormat(locale);
  const search = useOptionSearch();
  const offered = [...items.filter((f) => f.current), ...items.filter((f) => !f.current && f.count > 0)];
  if (offered.length === 0) return null;
  const shown = offered.slice(0, OPTIONS_SHOWN);
  const rest = offered.slice(OPTIONS_SHOWN);
  // Typing narrows the whole row, shown in the opened part.
  const listed = search.searching ? offered.filter((f) => search.matches(f.name_ar, f.name_en)) : rest;
  const chip = (f: FacetItem) => (
    <li key={f.slug}>
      <Link className={classes.chip} data-tone={tone} to={f.href} aria-current={f.current ? 'true' : undefined}>
        {name(f)}
        <span className={classes.count}>({n.format(f.count)})</span>
      </Link>
    </li>
  );
  return (
    <div className={classes.facetGroup}>
      <ul className={classes.facets} aria-label={label}>
        {shown.map(chip)}
      </ul>
      {rest.length > 0 ? (
        <ShowMore count={rest.length}>
          <div className={classes.moreBody}>
            <OptionSearchBox search={search} label={searchLabel} />
            {listed.length > 0 ? (
              <ul className={classes.facets} aria-label={label}>
                {listed.map(chip)}
              </ul>
            ) : (
              <NoMatch />
            )}
          </div>
        </ShowMore>
      ) : null}
    </div>
  );
}
