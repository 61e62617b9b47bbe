// `/posts/map` (docs/product/search.md): the search's ads on a map. The URL carries the same
// query as `/posts`; the map asks `GET /api/posts/map` for clusters and markers of its viewport
// after every move, and a marker opens the ad's card. Where the map looks (`view=lat,lng,zoom`) is
// written into the address with history.replaceState, not as a navigation: moving the map runs no
// loader and never scrolls the page, and Back from an ad returns to the same place.
import { ActionIcon, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconList, IconMapPin, IconPhoto, IconSearch, IconX } from '@tabler/icons-react';
import type { LayerGroup, Map as LeafletMap } from 'leaflet';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect, useLocation, useNavigate } from 'react-router';
import { adPath, usePlace, usePrice } from '~/components/ads/ad-parts.tsx';
import {
  creditedTileLayer,
  DEFAULT_CENTRE,
  type Leaflet,
  useLeafletWhenVisible,
  useTileUrl,
} from '~/components/map/leaflet-map.tsx';
import mapClasses from '~/components/map/map.module.css';
import { PlainSelect, PlainTextInput } from '~/components/plain-input.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { localeOf, services, tFor } from '~/lib/route.server.ts';
import { parseSearchQuery, type SearchQuery, searchString } from '~/lib/search-query.ts';
import { currentUser } from '~/lib/session.server.ts';
import { runInTasks } from '~/lib/tasks.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { AdCard as AdCardData } from '../../../server/domain/ads/cards.ts';
import type { MapCluster, MapResult } from '../../../server/domain/search/map.ts';
import { movedCategorySlug } from '../../../server/domain/search/moved-category.ts';
import { resolveQuery, searchEngine } from '../../../server/domain/search/service.ts';
import type { Route } from './+types/posts-map';
import { movedCategoryUrl } from './listing.server.ts';
import classes from './posts-map.module.css';

/** The map's tiles go no closer (as the other maps of the site). */
const MAX_ZOOM = 18;
const MIN_ZOOM = 4;
const CITY_ZOOM = 11;

/** `view=lat,lng,zoom` as the page writes it, or null. */
const VIEW = /^-?\d{1,2}(\.\d{1,6})?,-?\d{1,3}(\.\d{1,6})?,\d{1,2}$/;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeOf(request);
  const params = new URLSearchParams(url.search);
  // The filters form sent without JavaScript: its one "scope" select becomes taxonomy or category.
  const scope = params.get('scope');
  if (scope !== null) {
    for (const name of ['scope', 'taxonomy', 'category']) params.delete(name);
    const m = /^(taxonomy|category):(.+)$/.exec(scope);
    if (m) params.set(m[1] as string, m[2] as string);
  }
  const engine = searchEngine(services(context).database);
  const catalogue = await engine.catalogue();
  const parsed = parseSearchQuery(params);
  // A category named by an old slug: 301 to the same map with its slug now (as /posts does).
  const moved = await movedCategorySlug(services(context).database.db, catalogue, parsed.category);
  if (moved !== null) throw redirect(movedCategoryUrl(url, locale, '/posts/map', moved), 301);
  const resolved = resolveQuery(catalogue, parsed);
  // One address per query, as on the list (what the catalogue does not know is dropped), with
  // where the map looks kept at the end.
  const view = params.get('view');
  const canonical = new URLSearchParams(searchString(resolved.query));
  if (view !== null && VIEW.test(view)) canonical.set('view', view);
  if (canonical.toString() !== new URLSearchParams(url.search).toString()) {
    const search = canonical.toString().replaceAll('%2C', ',');
    throw redirect(localizePath('/posts/map', locale) + (search ? `?${search}` : ''));
  }
  const city = resolved.cityId === null ? null : (catalogue.cityById.get(resolved.cityId) ?? null);
  const named = (r: { slug: string; name_ar: string; name_en: string }) => ({
    slug: r.slug,
    name_ar: r.name_ar,
    name_en: r.name_en,
  });
  const categoriesOf = (ids: number[], depth: number): { slug: string; label: string; depth: number }[] =>
    ids.flatMap((id) => {
      const c = catalogue.categoryById.get(id);
      return c ? [{ slug: c.slug, label: localName(locale, c), depth }, ...categoriesOf(c.children, depth + 1)] : [];
    });
  const t = tFor(request);
  const signedIn = !!(await currentUser(request, context));
  return data(
    {
      query: resolved.query,
      search: searchString(resolved.query),
      centre: city ? { slug: city.slug, lat: city.lat, lng: city.lng } : null,
      taxonomies: catalogue.taxonomies.map((x) => ({
        ...named(x),
        categories: categoriesOf(catalogue.topLevel.get(x.id) ?? [], 0),
      })),
      cities: catalogue.cities.map(named),
      // Only the map of everything is worth a search engine's time.
      meta: { title: t('map:title'), description: t('map:description'), noindex: searchString(resolved.query) !== '' },
    },
    // What the page shows comes from the catalogue only; the ads come from the API.
    { headers: pageCacheHeaders(signedIn, []) },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

type LoaderData = Route.ComponentProps['loaderData'];

export default function PostsMapPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('map');
  const { to } = useLocale();
  const listUrl = to('/posts') + loaderData.search;
  return (
    <div className={classes.page}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Title order={1} size="h4">
          {t('title')}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Button
            component={Link}
            to={listUrl}
            variant="default"
            radius="xl"
            size="compact-sm"
            leftSection={<IconList size={16} aria-hidden />}
          >
            {t('list-link')}
          </Button>
          <Button component={Link} to={listUrl} variant="subtle" radius="xl" size="compact-sm" visibleFrom="sm">
            {t('filters-link')}
          </Button>
        </Group>
      </Group>
      <Filters data={loaderData} />
      <AdsMap search={loaderData.search} centre={loaderData.centre} />
    </div>
  );
}

/** Text, category and city; the other filters of the query (set on the list) are kept. */
function Filters({ data: loaderData }: { data: LoaderData }) {
  const { t } = useT('map');
  const { to, name } = useLocale();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { query } = loaderData;
  const scope = query.category ? `category:${query.category}` : query.taxonomy ? `taxonomy:${query.taxonomy}` : '';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: SearchQuery = { ...(query as SearchQuery) };
    next.q = String(form.get('q') ?? '').trim() || null;
    const chosen = /^(taxonomy|category):(.+)$/.exec(String(form.get('scope') ?? ''));
    next.taxonomy = chosen?.[1] === 'taxonomy' ? (chosen[2] as string) : null;
    next.category = chosen?.[1] === 'category' ? (chosen[2] as string) : null;
    const city = String(form.get('city') ?? '') || null;
    if (city !== next.city) next.area = null;
    next.city = city;
    if (next.sort === 'relevance' && !next.q) next.sort = 'newest';
    // Where the map looks stays; the loader checks the rest.
    const view = new URLSearchParams(window.location.search).get('view');
    const search = searchString(next);
    const tail = view ? `${search ? '&' : '?'}view=${view}` : '';
    navigate(`${pathname}${search}${tail}`, { preventScrollReset: true });
  };
  const scopes = [
    { value: '', label: t('filters.scope-all') },
    ...loaderData.taxonomies.map((x) => ({
      group: name(x),
      items: [
        { value: `taxonomy:${x.slug}`, label: t('filters.taxonomy-all', { name: name(x) }) },
        ...x.categories.map((c) => ({
          value: `category:${c.slug}`,
          label: `${'\u00a0\u00a0'.repeat(c.depth)}${c.label}`,
        })),
      ],
    })),
  ];
  return (
    <Form
      method="get"
      action={to('/posts/map')}
      role="search"
      aria-label={t('filters.label')}
      className={classes.filters}
      onSubmit={submit}
    >
      <PlainTextInput
        className={classes.q}
        name="q"
        type="search"
        radius="xl"
        aria-label={t('filters.q')}
        placeholder={t('filters.q-placeholder')}
        defaultValue={query.q ?? ''}
        key={`q:${query.q ?? ''}`}
        enterKeyHint="search"
      />
      <PlainSelect
        name="scope"
        radius="xl"
        aria-label={t('filters.scope')}
        data={scopes}
        defaultValue={scope}
        key={`scope:${scope}`}
      />
      <PlainSelect
        className={classes.city}
        name="city"
        radius="xl"
        aria-label={t('filters.city')}
        data={[
          { value: '', label: t('filters.city-all') },
          ...loaderData.cities.map((c) => ({ value: c.slug, label: name(c) })),
        ]}
        defaultValue={query.city ?? ''}
        key={`city:${query.city ?? ''}`}
      />
      <Button
        type="submit"
        size="sm"
        radius="xl"
        className={classes.submit}
        leftSection={<IconSearch size={16} aria-hidden />}
      >
        {t('filters.submit')}
      </Button>
    </Form>
  );
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const PIN =
  '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6a2.5 2.5 0 0 1 0 5.5z"/></svg>';

/** Where the map opens: the address's `view`, else the query's city, else Tripoli showing the north-west. */
function initialView(centre: LoaderData['centre']): { lat: number; lng: number; zoom: number } {
  const view = new URLSearchParams(window.location.search).get('view')?.split(',').map(Number);
  if (view && view.length === 3 && view.every(Number.isFinite)) {
    const [lat, lng, zoom] = view as [number, number, number];
    if (Math.abs(lat) <= 85 && Math.abs(lng) <= 180 && zoom >= MIN_ZOOM && zoom <= MAX_ZOOM) {
      return { lat, lng, zoom: Math.round(zoom) };
    }
  }
  if (centre) return { lat: centre.lat, lng: centre.lng, zoom: CITY_ZOOM };
  return { ...DEFAULT_CENTRE, zoom: window.innerWidth < 600 ? 6 : 7 };
}

/** `view=lat,lng,zoom` in the address, without a navigation (no loader, no scrolling). */
function rememberView(map: LeafletMap) {
  const c = map.getCenter();
  const params = new URLSearchParams(window.location.search);
  params.set('view', `${c.lat.toFixed(5)},${c.lng.toFixed(5)},${map.getZoom()}`);
  // Commas need no escaping in a query: `view=32.88720,13.19130,8` reads better.
  const search = params.toString().replaceAll('%2C', ',');
  window.history.replaceState(window.history.state, '', `${window.location.pathname}?${search}`);
}

type Preview =
  | { kind: 'ad'; id: number; card: AdCardData | null | undefined }
  | { kind: 'list'; count: number; cards: (AdCardData | null | undefined)[] };

type Status = { state: 'loading' } | { state: 'error' } | { state: 'done'; total: number; exact: boolean };

/** One ad in the preview: photo, price, title and place, the whole of it a link to the ad. */
function MapAdCard({ ad }: { ad: AdCardData }) {
  const { to } = useLocale();
  const price = usePrice();
  const place = usePlace()(ad);
  return (
    <Link to={to(adPath(ad))} className={classes.card}>
      <span className={classes.photo}>
        {ad.photo ? (
          <img src={ad.photo.thumb} alt="" className={classes.thumb} />
        ) : (
          <IconPhoto size={28} aria-hidden color="var(--mantine-color-dimmed)" />
        )}
      </span>
      <Stack gap={2}>
        <Text fw={700} c="brand" size="sm">
          {price(ad)}
        </Text>
        <Text fw={600} lineClamp={2} dir="auto" size="sm" className={classes.cardTitle}>
          {ad.title}
        </Text>
        <Group gap={4} c="dimmed" wrap="nowrap">
          <IconMapPin size={14} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="xs" lineClamp={1}>
            {place}
          </Text>
        </Group>
      </Stack>
    </Link>
  );
}

/** The shape of a MapAdCard while its ad loads (the words are for screen readers only). */
function MapAdCardSkeleton() {
  const { t } = useT('map');
  return (
    <div className={classes.card} aria-busy="true" data-testid="card-skeleton">
      <span className="visually-hidden">{t('loading')}</span>
      <Skeleton className={classes.photo} aria-hidden />
      <Stack gap={6} pt={2} aria-hidden>
        <Skeleton h={12} w="40%" radius="sm" />
        <Skeleton h={12} w="90%" radius="sm" />
        <Skeleton h={10} w="60%" radius="sm" />
      </Stack>
    </div>
  );
}

async function fetchCard(id: number): Promise<AdCardData | null> {
  const res = await fetch(`/api/posts/${id}/card`);
  if (!res.ok) return null;
  return ((await res.json()) as { data: AdCardData }).data;
}

function AdsMap({ search, centre }: { search: string; centre: LoaderData['centre'] }) {
  const { t } = useT('map');
  const { locale } = useLocale();
  const ref = useRef<HTMLElement>(null);
  const leaflet = useLeafletWhenVisible(ref);
  const tiles = useTileUrl();
  const mapRef = useRef<LeafletMap | null>(null);
  const layerRef = useRef<LayerGroup | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const previewRef = useRef<HTMLElement>(null);
  const [status, setStatus] = useState<Status>({ state: 'loading' });
  const [preview, setPreview] = useState<Preview | null>(null);
  // The latest values for Leaflet's handlers, which are bound once.
  const latest = useRef({ search, t, locale, leaflet });
  latest.current = { search, t, locale, leaflet };
  // Where the map opens (a later city is followed below).
  const opening = useRef(centre);

  const openAd = useCallback((id: number) => {
    setPreview({ kind: 'ad', id, card: undefined });
    fetchCard(id).then(
      (card) => setPreview((p) => (p?.kind === 'ad' && p.id === id ? { ...p, card } : p)),
      () => setPreview((p) => (p?.kind === 'ad' && p.id === id ? { ...p, card: null } : p)),
    );
  }, []);

  // A click on a cluster zooms to its ads; where zooming cannot part them any more, lists them.
  const openCluster = useCallback((L: Leaflet, map: LeafletMap, c: MapCluster) => {
    const [s, w, n, e] = c.bounds;
    const bounds = L.latLngBounds([s, w], [n, e]);
    const target = Math.min(map.getBoundsZoom(bounds, false, L.point(40, 40)), MAX_ZOOM);
    if (target > map.getZoom()) {
      map.fitBounds(bounds, { padding: [40, 40], maxZoom: MAX_ZOOM });
      return;
    }
    if (!c.ids || c.ids.length === 0) {
      map.setView([c.lat, c.lng], Math.min(map.getZoom() + 1, MAX_ZOOM));
      return;
    }
    const ids = c.ids;
    setPreview({ kind: 'list', count: c.count, cards: ids.map(() => undefined) });
    Promise.all(ids.map((id) => fetchCard(id).catch(() => null))).then((cards) =>
      setPreview((p) => (p?.kind === 'list' && p.count === c.count ? { ...p, cards } : p)),
    );
  }, []);

  const draw = useCallback(
    (L: Leaflet, map: LeafletMap, result: MapResult) => {
      const { t: tr, locale: lang } = latest.current;
      const layer = layerRef.current;
      if (!layer) return;
      layer.clearLayers();
      const digits = numberFormat(lang);
      const compact = numberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 });
      for (const c of result.clusters) {
        // 44 px at least: a tap target (docs/product/site.md, "Tap targets and contrast").
        const size = Math.round(Math.min(64, 44 + 7 * Math.log10(c.count)));
        const label = escapeHtml(tr('cluster', { count: c.count }));
        const shown = escapeHtml(c.count < 1000 ? digits.format(c.count) : compact.format(c.count));
        const icon = L.divIcon({
          className: '',
          html: `<button type="button" class="${classes.cluster}" aria-label="${label}">${shown}</button>`,
          iconSize: [size, size],
        });
        L.marker([c.lat, c.lng], { icon, keyboard: false, riseOnHover: true })
          .on('click', () => openCluster(L, map, c))
          .addTo(layer);
      }
      for (const m of result.markers) {
        const icon = L.divIcon({
          className: '',
          html: `<button type="button" class="${classes.marker}" aria-label="${escapeHtml(tr('marker'))}" data-ad="${m.id}">${PIN}</button>`,
          iconSize: [44, 44],
          iconAnchor: [22, 44],
        });
        L.marker([m.lat, m.lng], { icon, keyboard: false, riseOnHover: true })
          .on('click', () => openAd(m.id))
          .addTo(layer);
      }
    },
    [openAd, openCluster],
  );

  const load = useCallback(() => {
    const map = mapRef.current;
    const L = latest.current.leaflet;
    if (!map || !L) return;
    abortRef.current?.abort();
    const abort = new AbortController();
    abortRef.current = abort;
    const b = map.getBounds();
    const bbox = [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()].map((v) => v.toFixed(5)).join(',');
    const { search: query } = latest.current;
    const url = `/api/posts/map${query || '?'}${query ? '&' : ''}bbox=${bbox}&zoom=${map.getZoom()}`;
    setStatus({ state: 'loading' });
    fetch(url, { signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const result = (await res.json()) as MapResult;
        if (abort.signal.aborted) return;
        draw(L, map, result);
        setStatus({ state: 'done', total: result.total, exact: result.exact });
      })
      .catch(() => {
        if (!abort.signal.aborted) setStatus({ state: 'error' });
      });
  }, [draw]);

  // The map, once Leaflet is loaded: its panes, its first view and its tiles each in a task of
  // their own (on a phone each takes 20–45 ms; together they were one of the page's long tasks).
  useEffect(() => {
    const el = ref.current;
    if (!leaflet || !el) return;
    const start = initialView(opening.current);
    let map: LeafletMap | null = null;
    const stop = runInTasks([
      () => {
        map = leaflet.map(el, { minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM, attributionControl: false });
      },
      () => map?.setView([start.lat, start.lng], start.zoom),
      () => map && creditedTileLayer(leaflet, map, tiles, MAX_ZOOM).addTo(map),
      () => {
        const shown = map;
        if (!shown) return;
        layerRef.current = leaflet.layerGroup().addTo(shown);
        mapRef.current = shown;
        shown.on('moveend', () => {
          rememberView(shown);
          load();
        });
        load();
      },
    ]);
    return () => {
      stop();
      abortRef.current?.abort();
      map?.remove();
      mapRef.current = null;
      layerRef.current = null;
    };
  }, [leaflet, tiles, load]);

  // Other filters: the same viewport, new ads; another city: the map goes there.
  const shown = useRef({ search, city: centre?.slug ?? null });
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const before = shown.current;
    shown.current = { search, city: centre?.slug ?? null };
    if (before.search === search) return;
    setPreview(null);
    if (centre && centre.slug !== before.city) map.setView([centre.lat, centre.lng], CITY_ZOOM);
    else load();
  }, [search, centre, load]);

  // The preview takes the focus when it opens (keyboard and screen reader users land in it).
  const previewKey = preview ? (preview.kind === 'ad' ? `ad:${preview.id}` : `list:${preview.count}`) : null;
  useEffect(() => {
    if (previewKey) previewRef.current?.focus();
  }, [previewKey]);

  const statusText =
    status.state === 'loading'
      ? t('loading')
      : status.state === 'error'
        ? t('error')
        : status.total === 0
          ? t('none')
          : status.exact
            ? t('count', { count: status.total })
            : t('count-more', { n: status.total });

  return (
    <div className={classes.box}>
      <section ref={ref} className={`${mapClasses.map} ${classes.fill}`} aria-label={t('map-label')} />
      <Group className={classes.status} gap="xs" justify="center" wrap="nowrap">
        <Text size="sm" role="status" aria-live="polite">
          {statusText}
        </Text>
        {status.state === 'error' ? (
          <Button size="compact-xs" variant="light" radius="xl" onClick={load}>
            {t('retry')}
          </Button>
        ) : null}
      </Group>
      {preview ? (
        <Paper
          ref={previewRef}
          component="section"
          tabIndex={-1}
          aria-label={t('preview')}
          withBorder
          radius="lg"
          p="xs"
          className={`${classes.preview} ${preview.kind === 'list' ? classes.list : ''}`}
          onKeyDown={(e: React.KeyboardEvent) => {
            if (e.key === 'Escape') setPreview(null);
          }}
        >
          <Group justify="space-between" wrap="nowrap" mb={6} gap="xs">
            <Text size="sm" fw={600}>
              {preview.kind === 'list' ? t('here', { count: preview.count }) : t('preview')}
            </Text>
            <ActionIcon
              variant="subtle"
              color="gray"
              radius="xl"
              aria-label={t('close')}
              onClick={() => setPreview(null)}
            >
              <IconX size={18} aria-hidden />
            </ActionIcon>
          </Group>
          {preview.kind === 'ad' ? (
            preview.card === undefined ? (
              <MapAdCardSkeleton />
            ) : preview.card === null ? (
              <Text size="sm">{t('gone')}</Text>
            ) : (
              <MapAdCard ad={preview.card} />
            )
          ) : (
            <Stack gap={6}>
              {preview.count > preview.cards.length ? (
                <Text size="xs" c="dimmed">
                  {t('here-some')}
                </Text>
              ) : null}
              <ul className={classes.previewCards}>
                {preview.cards.map((card, i) =>
                  card ? (
                    <li key={card.id}>
                      <MapAdCard ad={card} />
                    </li>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else
                    <li key={i}>
                      {card === undefined ? (
                        <MapAdCardSkeleton />
                      ) : (
                        <Text size="xs" c="dimmed">
                          {t('gone')}
                        </Text>
                      )}
                    </li>
                  ),
                )}
              </ul>
            </Stack>
          )}
          <Text size="xs" c="dimmed" mt={6}>
            {t('approximate')}
          </Text>
        </Paper>
      ) : null}
    </div>
  );
}
