// One row of facet links (the categories one level down — makes, models — or the cities, or the
// city's areas) with their counts (docs/product-notes.md, "Search and browse"). Options without
// ads are left out (the one chosen stays); past FACETS_SHOWN the rest wait behind "show more (N)",
// a native disclosure that opens without scripts, and a long list can be narrowed by typing,
// Arabic-aware (app/lib/normalize-text.ts) and in either language.
import { IconChevronDown } from '@tabler/icons-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { normalizeText } from '~/lib/normalize-text.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './search.module.css';

/** Options shown before "show more". */
export const FACETS_SHOWN = 8;

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
  items,
  tone,
}: {
  /** What the options are ("Cities"): the list's name, and the search box's. */
  label: string;
  items: FacetItem[];
  tone?: 'light';
}) {
  const { t } = useT('search');
  const { name, tag } = useLocale();
  const n = numberFormat(tag);
  const inputId = useId();
  const [text, setText] = useState('');
  // The search box filters with a script: it is offered once the page runs one.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const offered = useMemo(
    () => [...items.filter((f) => f.current), ...items.filter((f) => !f.current && f.count > 0)],
    [items],
  );
  const shown = offered.slice(0, FACETS_SHOWN);
  const rest = offered.slice(FACETS_SHOWN);
  const wanted = normalizeText(text);
  const matches = wanted ? offered.filter((f) => normalizeText(`${f.name_ar} ${f.name_en}`).includes(wanted)) : rest;
  if (offered.length === 0) return null;
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
        <details className={classes.more}>
          <summary className={classes.moreToggle}>
            {t('more', { n: n.format(rest.length) })}
            <IconChevronDown size={16} aria-hidden className={classes.moreIcon} />
          </summary>
          <div className={classes.moreBody}>
            {scripted ? (
              <input
                id={inputId}
                type="search"
                className={classes.input}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                aria-label={t('find-in', { name: label })}
                placeholder={t('find-in', { name: label })}
                autoComplete="off"
              />
            ) : null}
            {matches.length > 0 ? (
              <ul className={classes.moreList} aria-label={label}>
                {matches.map(chip)}
              </ul>
            ) : (
              <p className={classes.noMatch} role="status">
                {t('no-match')}
              </p>
            )}
          </div>
        </details>
      ) : null}
    </div>
  );
}
