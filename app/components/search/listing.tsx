// A listing of search results (issue 5 §3), shared by `/posts` and the category pages: result count,
// sort, filters (a side panel on wide screens, a drawer on phones), facet links by category and
// city, the cards, stable page links, an empty state with ways out, and "save this search".
import {
  Anchor,
  Box,
  Button,
  Checkbox,
  Drawer,
  Grid,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconBookmark, IconMap2, IconSearchOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { AdCards, Pager } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { numberFormat } from '~/lib/intl.ts';
import {
  EMPTY_QUERY,
  hasFilters,
  SEARCH_CURRENCIES,
  type SearchQuery,
  SORTS,
  searchParamsOf,
  searchString,
  WITHIN_DAYS,
} from '~/lib/search-query.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { FilterAttribute, Listing } from '~/routes/search/listing.server.ts';

/** The listing's own URL for a query (and page): category pages keep their category in the path. */
function useListingHref(listing: Pick<Listing, 'base' | 'scope'>) {
  const { to } = useLocale();
  const onCategoryPage = listing.base !== '/posts';
  return (query: SearchQuery, page = 1) => to(listing.base) + searchString(query, page, { category: onCategoryPage });
}

function useCount() {
  const { t } = useTranslation('search');
  const { tag } = useLocale();
  return (n: number, exact = true) =>
    exact ? t('results', { count: n }) : t('results-more', { n: numberFormat(tag).format(n) });
}

export function SearchListing({ listing, title, signedIn }: { listing: Listing; title: string; signedIn: boolean }) {
  const { t } = useTranslation('search');
  const { to } = useLocale();
  const count = useCount();
  const href = useListingHref(listing);
  const [opened, { open, close }] = useDisclosure(false);
  const { query } = listing;
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location?.pathname === to(listing.base);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm" role="status" aria-live="polite" data-testid="result-count">
            {count(listing.total, listing.exact)}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            hiddenFrom="md"
            variant="default"
            radius="xl"
            leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden />}
            onClick={open}
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
        </Group>
      </Group>
      <SortForm listing={listing} />
      <Facets listing={listing} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }} visibleFrom="md">
          <Box component="aside" aria-label={t('filters')}>
            <FiltersForm listing={listing} idPrefix="side" />
          </Box>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }} aria-busy={busy}>
          {listing.ads.length > 0 ? (
            <section aria-label={t('results-label')}>
              <AdCards ads={listing.ads} label={t('results-label')} now={listing.now} />
              <Pager page={listing.page} pages={listing.pages} href={(n) => href(query, n)} />
            </section>
          ) : (
            <NoResults listing={listing} />
          )}
        </Grid.Col>
      </Grid>
      <Drawer
        opened={opened}
        onClose={close}
        title={t('filters')}
        position="bottom"
        size="90%"
        closeButtonProps={{ 'aria-label': t('close-filters') }}
      >
        <FiltersForm listing={listing} idPrefix="drawer" onSubmit={close} />
      </Drawer>
    </Stack>
  );
}

/** Sort order: a select that applies at once (a small form: it works without scripts too). */
function SortForm({ listing }: { listing: Listing }) {
  const { t } = useTranslation('search');
  const { to } = useLocale();
  const submit = useSubmit();
  const { query } = listing;
  const params = searchParamsOf({ ...query, sort: 'newest' }, { category: listing.base !== '/posts' });
  return (
    <Form method="get" action={to(listing.base)}>
      {[...params].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Group gap="xs" align="center">
        <NativeSelect
          label={t('sort.label')}
          name="sort"
          size="sm"
          radius="xl"
          value={query.sort}
          onChange={(e) => submit(e.currentTarget.form)}
          data={SORTS.filter((s) => s !== 'relevance' || query.q !== null).map((s) => ({
            value: s,
            label: t(`sort.${s}`),
          }))}
          styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 } }}
        />
        <noscript>
          <Button type="submit" size="xs" variant="default">
            {t('apply')}
          </Button>
        </noscript>
      </Group>
    </Form>
  );
}

/** One level down the catalogue, and the cities (or the chosen city's areas), with their counts. */
function Facets({ listing }: { listing: Listing }) {
  const { t } = useTranslation('search');
  const { name, tag } = useLocale();
  const href = useListingHref(listing);
  const { query, facets } = listing;
  const n = numberFormat(tag);
  const onCategoryPage = listing.base !== '/posts';
  const { to } = useLocale();
  const categoryLink = (slug: string) => {
    if (onCategoryPage) {
      const taxonomy = listing.scope.taxonomy?.slug ?? '';
      return to(`/${taxonomy}/${slug}`) + searchString({ ...query, category: slug }, 1, { category: true });
    }
    const isTaxonomy = !query.taxonomy && !query.category;
    return href(isTaxonomy ? { ...query, taxonomy: slug, attributes: {} } : { ...query, category: slug });
  };
  const places = query.city ? facets.areas : facets.cities;
  return (
    <Stack gap="xs">
      {facets.categories.length > 0 ? (
        <Group
          gap={6}
          component="ul"
          aria-label={t('facets.categories')}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {facets.categories.map((f) => (
            <li key={f.slug}>
              <Button component={Link} to={categoryLink(f.slug)} variant="default" radius="xl" size="compact-sm">
                {name(f)}&nbsp;
                <Text span c="dimmed" size="xs">
                  ({n.format(f.count)})
                </Text>
              </Button>
            </li>
          ))}
        </Group>
      ) : null}
      {places.length > 0 ? (
        <Group
          gap={6}
          component="ul"
          aria-label={t(query.city ? 'facets.areas' : 'facets.cities')}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {places.slice(0, 12).map((f) => {
            const active = query.city ? query.area === f.slug : false;
            const target = query.city
              ? { ...query, area: active ? null : f.slug }
              : { ...query, city: f.slug, area: null };
            return (
              <li key={f.slug}>
                <Button
                  component={Link}
                  to={href(target)}
                  aria-current={active ? 'true' : undefined}
                  variant={active ? 'filled' : 'light'}
                  radius="xl"
                  size="compact-sm"
                >
                  {name(f)}&nbsp;
                  <Text span size="xs">
                    ({n.format(f.count)})
                  </Text>
                </Button>
              </li>
            );
          })}
        </Group>
      ) : null}
    </Stack>
  );
}

/** The filters as one GET form: submitting it moves to the listing's canonical URL. */
function FiltersForm({ listing, idPrefix, onSubmit }: { listing: Listing; idPrefix: string; onSubmit?: () => void }) {
  const { t } = useTranslation('search');
  const { to, name } = useLocale();
  const href = useListingHref(listing);
  const { query, options } = listing;
  const onCategoryPage = listing.base !== '/posts';
  const city = options.cities.find((c) => c.slug === query.city);
  const id = (s: string) => `${idPrefix}-${s}`;
  /** Choices of catalogue entries by slug, "any" (no filter) first. */
  const bySlug = (any: string, items: { slug: string; name_ar: string; name_en: string }[]) => [
    { value: '', label: any },
    ...items.map((x) => ({ value: x.slug, label: name(x) })),
  ];
  return (
    <Form method="get" action={to(listing.base)} onSubmit={onSubmit} key={searchString(query)}>
      <Stack gap="sm">
        <TextInput id={id('q')} name="q" type="search" label={t('fields.q')} defaultValue={query.q ?? ''} />
        {query.sort !== 'newest' ? <input type="hidden" name="sort" value={query.sort} /> : null}
        {onCategoryPage ? null : query.category ? (
          <input type="hidden" name="category" value={query.category} />
        ) : (
          <NativeSelect
            id={id('taxonomy')}
            name="taxonomy"
            label={t('fields.taxonomy')}
            defaultValue={query.taxonomy ?? ''}
            data={bySlug(t('any'), options.taxonomies)}
          />
        )}
        <NativeSelect
          id={id('city')}
          name="city"
          label={t('fields.city')}
          defaultValue={query.city ?? ''}
          data={bySlug(t('any-city'), options.cities)}
        />
        {city && city.areas.length > 0 ? (
          <NativeSelect
            id={id('area')}
            name="area"
            label={t('fields.area')}
            defaultValue={query.area ?? ''}
            data={bySlug(t('any'), city.areas)}
          />
        ) : null}
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <Text component="legend" size="sm" fw={500} mb={4}>
            {t('fields.price')}
          </Text>
          <Group gap="xs" grow wrap="nowrap">
            <RangeInputs
              id={id('price')}
              names={['price_min', 'price_max']}
              labels={[t('fields.price-min'), t('fields.price-max')]}
              placeholders={[t('min'), t('max')]}
              values={[query.priceMin, query.priceMax]}
            />
            <NativeSelect
              id={id('currency')}
              name="currency"
              aria-label={t('fields.currency')}
              defaultValue={query.currency}
              data={SEARCH_CURRENCIES.map((c) => ({ value: c, label: t(`ads:currency-short.${c}`) }))}
            />
          </Group>
        </fieldset>
        {options.attributes.map((a) => (
          <AttributeField key={a.key} attribute={a} query={query} id={id(`f-${a.key}`)} />
        ))}
        <NativeSelect
          id={id('within')}
          name="within"
          label={t('fields.within')}
          defaultValue={query.within === null ? '' : String(query.within)}
          data={[
            { value: '', label: t('any-time') },
            ...WITHIN_DAYS.map((d) => ({ value: String(d), label: t('within', { count: d }) })),
          ]}
        />
        <Checkbox id={id('photos')} name="photos" value="1" label={t('fields.photos')} defaultChecked={query.photos} />
        <Button type="submit" radius="xl">
          {t('apply')}
        </Button>
        {listing.filtered ? (
          <Anchor
            component={Link}
            to={href({ ...EMPTY_QUERY, taxonomy: query.taxonomy, category: query.category })}
            ta="center"
            size="sm"
          >
            {t('clear')}
          </Anchor>
        ) : null}
      </Stack>
    </Form>
  );
}

function AttributeField({ attribute: a, query, id }: { attribute: FilterAttribute; query: SearchQuery; id: string }) {
  const { t } = useTranslation('search');
  const { locale, name } = useLocale();
  const f = query.attributes[a.key];
  const unit = locale === 'ar' ? a.unit_ar : a.unit_en;
  const label = unit ? `${name(a)} (${unit})` : name(a);
  if (a.type === 'select' || a.type === 'multiselect') {
    const chosen = f?.kind === 'options' ? f.options : [];
    return (
      <Checkbox.Group label={label} id={id}>
        <Stack gap={6} mt={4} mah={220} style={{ overflowY: 'auto' }}>
          {a.options.map((o) => (
            <Checkbox
              key={o.value}
              id={`${id}-${o.value}`}
              name={`f.${a.key}`}
              value={o.value}
              label={locale === 'ar' ? o.ar : o.en}
              defaultChecked={chosen.includes(o.value)}
            />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  }
  if (a.type === 'boolean') {
    return (
      <NativeSelect
        id={id}
        name={`f.${a.key}`}
        label={label}
        defaultValue={f?.kind === 'bool' ? (f.value ? '1' : '0') : ''}
        data={[
          { value: '', label: t('any') },
          { value: '1', label: t('yes') },
          { value: '0', label: t('no') },
        ]}
      />
    );
  }
  const range = f?.kind === 'range' ? f : { min: null, max: null };
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <Group gap="xs" grow wrap="nowrap">
        <RangeInputs
          id={id}
          names={[`f.${a.key}.min`, `f.${a.key}.max`]}
          labels={[t('range-min', { name: name(a) }), t('range-max', { name: name(a) })]}
          placeholders={[a.min !== null ? String(a.min) : t('min'), a.max !== null ? String(a.max) : t('max')]}
          values={[range.min, range.max]}
        />
      </Group>
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
    <TextInput
      key={end}
      id={`${id}-${end}`}
      name={names[i]}
      inputMode="numeric"
      aria-label={labels[i]}
      placeholder={placeholders[i]}
      defaultValue={values[i] ?? ''}
    />
  ));
}

/** Nothing matched: say so, and offer the ways out that usually work. */
function NoResults({ listing }: { listing: Listing }) {
  const { t } = useTranslation('search');
  const { to } = useLocale();
  const href = useListingHref(listing);
  const { query } = listing;
  const actions = [];
  if (hasFilters(query, { text: false })) {
    actions.push({
      label: t('empty.clear-filters'),
      to: href({ ...EMPTY_QUERY, q: query.q, taxonomy: query.taxonomy, category: query.category }),
    });
  }
  if (query.q && (query.category || query.taxonomy)) {
    actions.push({ label: t('empty.everywhere'), to: to('/posts') + searchString({ ...EMPTY_QUERY, q: query.q }) });
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
  const { t } = useTranslation('search');
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
