// The categories a text query names, above its results (docs/product/search.md, "Categories a query
// names"): "تويوتا في سيارات ‹" / "Toyota in Cars ›", each the same query on that category's page.
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { searchString } from '~/lib/search-query.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { Listing } from '~/routes/search/listing.server.ts';
// The look of the applied filters' chips (search.module.css), with an arrow for "go there".
import classes from './search.module.css';

export function CategoryChips({ listing }: { listing: Pick<Listing, 'query' | 'namedCategories'> }) {
  const { t } = useT('search');
  const { name, locale, to } = useLocale();
  const { query, namedCategories } = listing;
  if (namedCategories.length === 0) return null;
  const n = numberFormat(locale);
  return (
    <nav aria-label={t('named.label')}>
      <ul className={classes.facets}>
        {namedCategories.map((c) => (
          <li key={c.slug}>
            <Link
              className={classes.appliedChip}
              to={to(`/${c.taxonomy}/${c.slug}`) + searchString({ ...query, category: c.slug }, 1, { category: true })}
            >
              <span>
                {c.parent ? t('named.in', { name: name(c), parent: name(c.parent) }) : name(c)}{' '}
                <span className={classes.count}>({n.format(c.count)})</span>
              </span>
              <IconChevronRight size={16} aria-hidden className="mirror-rtl" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
