// The photos of the ad form (docs/product/ads.md). Each picked or dropped file is made
// smaller in the browser (long side ≤ 2048 px, JPEG) and uploaded at once to `POST /api/ad-images`,
// two at a time, with a progress bar; a refused file shows the server's words and can be retried.
// The uploaded photos are ordered by dragging or with the earlier/later buttons (keyboard, screen
// readers, phones), the first one is the cover, and they reach the form as hidden `photos` inputs
// in that order, so the route's action and schema see a plain list of ids. Uploading needs
// JavaScript; without it the rest of the form still posts.
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Fieldset,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconArrowRight,
  IconPhoto,
  IconPhotoPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { type DragEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { apiErrorText, apiSend, NetworkError } from '~/lib/api-client.ts';
import { numberFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { MAX_PHOTOS } from '~/lib/validation/ads.ts';

/** Uploads running at once (downscaling included): enough to keep a slow line busy. */
const CONCURRENCY = 2;
/** The long side of a photo sent to the server; the largest stored variant is 1600 px wide. */
export const MAX_SIDE = 2048;
/** A photo already within MAX_SIDE and this size (in an accepted type) is sent as it is. */
export const KEEP_ORIGINAL_BYTES = 1.5 * 1024 * 1024;
const JPEG_QUALITY = 0.85;
/** Types the server accepts (server/media/images.ts); others are re-encoded when the browser can. */
const SERVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);
/**
 * Pending photos are removed on the server a day after upload (ORPHAN_AD_IMAGE_HOURS); a draft's
 * photos older than this are not restored.
 */
const DRAFT_PHOTO_MAX_AGE_MS = 23 * 60 * 60 * 1000;
const DRAG_TYPE = 'application/x-souq-photo';

/** An uploaded photo as the draft keeps it. */
export interface DraftPhoto {
  id: number;
  thumb: string;
  /** When it was uploaded (ms since the epoch). */
  at: number;
}

type Status = 'queued' | 'preparing' | 'uploading' | 'done' | 'error' | 'missing';

export interface PhotoItem {
  key: string;
  status: Status;
  /** The file's name, for messages; empty for a photo restored from the draft. */
  name: string;
  /** The picked file, kept for a retry. */
  file?: File;
  /** A local preview (object URL) until the server's thumbnail is known. */
  preview?: string;
  /** 0–1 while uploading. */
  progress: number;
  error?: string;
  id?: number;
  thumb?: string;
  at?: number;
}

interface UploadedAdImage {
  id: number;
  width: number;
  height: number;
  urls: { thumb: string; medium: string; large: string };
}

/** The size a photo of `width`×`height` is sent at: within `max` on the long side, never larger. */
export function fitWithin(width: number, height: number, max = MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * What is uploaded for a picked file: a JPEG of at most MAX_SIDE px on the long side (turned
 * upright from its EXIF orientation), or the file itself when it is already small enough, or when
 * this browser cannot decode it (e.g. HEIC): the server then says what is wrong with it.
 */
export async function preparePhoto(file: File): Promise<Blob> {
  if (typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const size = fitWithin(bitmap.width, bitmap.height);
    const shrinks = size.width < bitmap.width || size.height < bitmap.height;
    if (!shrinks && file.size <= KEEP_ORIGINAL_BYTES && SERVER_TYPES.has(file.type)) return file;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    // JPEG has no transparency: a transparent PNG gets a white background rather than a black one.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (!blob) return file;
    // Re-encoding a photo that needed no shrinking only helps when it saves bytes.
    if (!shrinks && SERVER_TYPES.has(file.type) && blob.size >= file.size) return file;
    return blob;
  } finally {
    bitmap.close();
  }
}

const jpegName = (name: string) => `${name.replace(/\.[^./\\]*$/, '') || 'photo'}.jpg`;

let sequence = 0;
const nextKey = () => `photo-${++sequence}`;

/**
 * The photos' state and the upload queue, held by the ad form (which keeps the uploaded ones in
 * its draft) and shown by <PhotoUploader>.
 */
export function usePhotoUploads() {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { locale } = useLocale();
  const [items, setItems] = useState<PhotoItem[]>([]);
  // The current list for the queue's async steps (state updates are not seen by their closures).
  const itemsRef = useRef<PhotoItem[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const running = useRef(0);
  const alive = useRef(true);
  const [announcement, setAnnouncement] = useState('');
  const [notice, setNotice] = useState<number>(0);

  const update = useCallback((change: (list: PhotoItem[]) => PhotoItem[]) => {
    itemsRef.current = change(itemsRef.current);
    setItems(itemsRef.current);
  }, []);
  const patch = useCallback(
    (key: string, values: Partial<PhotoItem>) =>
      update((list) => list.map((item) => (item.key === key ? { ...item, ...values } : item))),
    [update],
  );
  const position = (key: string) => itemsRef.current.findIndex((i) => i.key === key) + 1;
  const label = (item: PhotoItem) => item.name || t('placing:photos.alt', { n: position(item.key) });

  const upload = async (key: string, file: File) => {
    const controller = new AbortController();
    controllers.current.set(key, controller);
    try {
      const blob = await preparePhoto(file);
      if (controller.signal.aborted) return;
      patch(key, { status: 'uploading', progress: 0 });
      const body = new FormData();
      body.set('photo', blob, blob === file ? file.name : jpegName(file.name));
      const res = await apiSend<UploadedAdImage>('POST', '/api/ad-images', {
        locale,
        body,
        signal: controller.signal,
        onProgress: (fraction) => {
          // The last bytes are followed by the server's processing: 100 % only once it answered.
          if (alive.current) patch(key, { progress: Math.min(fraction, 0.99) });
        },
      });
      const uploaded = res.status === 201 ? (res.body as UploadedAdImage) : null;
      if (uploaded && typeof uploaded.id === 'number') {
        const item = itemsRef.current.find((i) => i.key === key);
        if (!item || !alive.current) {
          // Removed while the server was busy with it: not kept.
          void apiSend('DELETE', `/api/ad-images/${uploaded.id}`, { locale }).catch(() => undefined);
          return;
        }
        if (item.preview) URL.revokeObjectURL(item.preview);
        patch(key, {
          status: 'done',
          progress: 1,
          id: uploaded.id,
          thumb: uploaded.urls.thumb,
          at: Date.now(),
          preview: undefined,
          error: undefined,
        });
        setAnnouncement(t('placing:photos.announce-uploaded', { name: label(item) }));
        return;
      }
      const message = apiErrorText(res.body, 'photo') ?? t('placing:photos.failed');
      fail(key, message);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      // NetworkError: no answer at all (offline, connection cut); anything else is a bug here.
      if (!(error instanceof NetworkError)) console.error(error);
      fail(key, t('placing:photos.failed'));
    } finally {
      controllers.current.delete(key);
    }
  };

  const fail = (key: string, message: string) => {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item || !alive.current) return;
    patch(key, { status: 'error', error: message, progress: 0 });
    setAnnouncement(t('placing:photos.announce-failed', { name: label(item), message }));
  };

  const pump = () => {
    while (alive.current && running.current < CONCURRENCY) {
      const next = itemsRef.current.find((i) => i.status === 'queued');
      if (!next?.file) return;
      running.current += 1;
      patch(next.key, { status: 'preparing', progress: 0, error: undefined });
      void upload(next.key, next.file).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  };

  /** Queues picked or dropped files, as many as still fit. */
  const add = (files: File[]) => {
    const room = Math.max(0, MAX_PHOTOS - itemsRef.current.length);
    const taken = files.slice(0, room);
    setNotice(files.length - taken.length);
    if (taken.length === 0) return;
    update((list) => [
      ...list,
      ...taken.map((file) => ({
        key: nextKey(),
        status: 'queued' as const,
        name: file.name,
        file,
        preview: URL.createObjectURL(file),
        progress: 0,
      })),
    ]);
    pump();
  };

  const retry = (key: string) => {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item?.file || item.status !== 'error') return;
    patch(key, { status: 'queued', error: undefined, progress: 0 });
    pump();
  };

  const remove = (key: string) => {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item) return;
    controllers.current.get(key)?.abort();
    if (item.preview) URL.revokeObjectURL(item.preview);
    update((list) => list.filter((i) => i.key !== key));
    setNotice(0);
    // A pending photo nobody uses is also pruned after a day; deleting it now is a courtesy.
    if (item.id !== undefined) {
      void apiSend('DELETE', `/api/ad-images/${item.id}`, { locale }).catch(() => undefined);
    }
    setAnnouncement(t('placing:photos.announce-removed', { name: label(item) }));
  };

  /** Moves a photo to `index` (0-based) in the list. */
  const move = (key: string, index: number) => {
    const from = itemsRef.current.findIndex((i) => i.key === key);
    const to = Math.max(0, Math.min(index, itemsRef.current.length - 1));
    if (from < 0 || from === to) return;
    update((list) => {
      const next = [...list];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item);
      return next;
    });
    setAnnouncement(t('placing:photos.announce-moved', { n: to + 1 }));
  };

  /**
   * An image that does not load: an uploaded photo's thumbnail (e.g. a draft's photo since removed
   * on the server) is left out of the ad; a local preview this browser cannot show (HEIC) gives way
   * to a placeholder.
   */
  const lost = (key: string) => {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item) return;
    if (item.status === 'done') return patch(key, { status: 'missing', error: t('placing:photos.missing') });
    if (item.preview && !item.thumb) {
      URL.revokeObjectURL(item.preview);
      patch(key, { preview: undefined });
    }
  };

  /**
   * Photos shown as uploaded: a saved draft's (too old ones are skipped: the server has pruned them)
   * or, with `attached`, the photos an edited ad already has.
   */
  const restore = useCallback(
    (photos: unknown, options: { attached?: boolean } = {}) => {
      if (!Array.isArray(photos)) return;
      const now = Date.now();
      const kept = photos
        .filter(
          (p): p is DraftPhoto =>
            !!p &&
            typeof p === 'object' &&
            Number.isSafeInteger(p.id) &&
            p.id > 0 &&
            typeof p.thumb === 'string' &&
            // A path on this site or the storage's http(s) URL; the CSP's img-src has the last word.
            /^(\/(?!\/)|https?:\/\/)/.test(p.thumb) &&
            typeof p.at === 'number' &&
            (options.attached || now - p.at < DRAFT_PHOTO_MAX_AGE_MS),
        )
        .slice(0, MAX_PHOTOS);
      if (kept.length === 0) return;
      update(() =>
        kept.map((p) => ({
          key: nextKey(),
          status: 'done' as const,
          name: '',
          progress: 1,
          id: p.id,
          thumb: p.thumb,
          at: p.at,
        })),
      );
    },
    [update],
  );

  useEffect(() => {
    alive.current = true;
    const open = controllers.current;
    return () => {
      alive.current = false;
      for (const controller of open.values()) controller.abort();
      for (const item of itemsRef.current) if (item.preview) URL.revokeObjectURL(item.preview);
    };
  }, []);

  const uploaded = useMemo<DraftPhoto[]>(
    () =>
      items
        .filter((i) => i.status === 'done' && i.id !== undefined && i.thumb)
        .map((i) => ({ id: i.id as number, thumb: i.thumb as string, at: i.at ?? Date.now() })),
    [items],
  );

  return {
    items,
    uploaded,
    /** Photos still on their way. */
    busy: items.some((i) => i.status === 'queued' || i.status === 'preparing' || i.status === 'uploading'),
    /** Photos that did not make it (refused, failed, gone). */
    failed: items.some((i) => i.status === 'error' || i.status === 'missing'),
    announcement,
    /** How many picked files did not fit (MAX_PHOTOS). */
    notice,
    add,
    retry,
    remove,
    move,
    lost,
    restore,
  };
}

export type PhotoUploads = ReturnType<typeof usePhotoUploads>;

/** The photos part of the ad form. `error` is the server's word on the `photos` field. */
export function PhotoUploader({
  uploads,
  error,
  blocked,
}: {
  uploads: PhotoUploads;
  error?: string;
  /** Why the form was not sent (photos still uploading, or failed), set by the form on submit. */
  blocked?: string;
}) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { locale } = useLocale();
  const inputRef = useRef<HTMLInputElement>(null);
  // The list (a <ul>; SimpleGrid types its ref as a div).
  const listRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const [ready, setReady] = useState(false);
  const [dropping, setDropping] = useState(false);
  const [dragKey, setDragKey] = useState<string | null>(null);
  const [overKey, setOverKey] = useState<string | null>(null);
  // After a move or removal by button, where the keyboard focus goes.
  const focusNext = useRef<{ key: string; action: 'earlier' | 'later' | 'remove' } | 'add' | null>(null);
  const { items } = uploads;
  const full = items.length >= MAX_PHOTOS;
  const coverKey = items.find((i) => i.status === 'done')?.key;
  const percent = useMemo(() => numberFormat(locale, { style: 'percent' }), [locale]);
  const Earlier = locale === 'ar' ? IconArrowRight : IconArrowLeft;
  const Later = locale === 'ar' ? IconArrowLeft : IconArrowRight;

  useEffect(() => setReady(true), []);

  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    if (target === 'add') return void addRef.current?.focus();
    const card = listRef.current?.querySelector<HTMLElement>(`[data-photo-key="${target.key}"]`);
    const order: string[] =
      target.action === 'earlier' ? ['earlier', 'later'] : target.action === 'later' ? ['later', 'earlier'] : [];
    for (const action of order) {
      const button = card?.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
      if (button && !button.disabled) return void button.focus();
    }
  });

  const isFileDrag = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');

  const onZoneDragOver = (e: DragEvent) => {
    if (!ready || !isFileDrag(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = full ? 'none' : 'copy';
    setDropping(true);
  };
  const onZoneDrop = (e: DragEvent) => {
    if (!ready || !isFileDrag(e)) return;
    e.preventDefault();
    setDropping(false);
    uploads.add(Array.from(e.dataTransfer.files));
  };

  const onCardDragStart = (e: DragEvent, key: string) => {
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData(DRAG_TYPE, key);
    setDragKey(key);
  };
  const onCardDragOver = (e: DragEvent, key: string) => {
    if (!dragKey) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (overKey !== key) setOverKey(key);
  };
  const onCardDrop = (e: DragEvent, key: string) => {
    if (!dragKey) return;
    e.preventDefault();
    e.stopPropagation();
    uploads.move(
      dragKey,
      items.findIndex((i) => i.key === key),
    );
    setDragKey(null);
    setOverKey(null);
  };
  const onCardDragEnd = () => {
    setDragKey(null);
    setOverKey(null);
  };

  const statusText = (item: PhotoItem) => {
    switch (item.status) {
      case 'queued':
        return t('placing:photos.waiting');
      case 'preparing':
        return t('placing:photos.preparing');
      case 'uploading':
        return t('placing:photos.uploading', { percent: percent.format(item.progress) });
      default:
        return '';
    }
  };

  return (
    <Fieldset id="ad-photos" legend={t('placing:photos.legend')} radius="md">
      {/* Files dropped anywhere on the photos (not only on the zone) are taken, not opened by the browser. */}
      <Stack
        gap="sm"
        onDragOver={onZoneDragOver}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
        }}
        onDrop={onZoneDrop}
      >
        <Text size="sm" c="dimmed" id="ad-photos-hint">
          {t('placing:photos.hint', { max: MAX_PHOTOS })}
        </Text>
        <noscript>
          <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
            {t('placing:photos.noscript')}
          </Alert>
        </noscript>
        <Box
          p="md"
          style={{
            border: `2px dashed ${dropping ? 'var(--mantine-color-brand-6)' : 'var(--mantine-color-default-border)'}`,
            borderRadius: 'var(--mantine-radius-md)',
            background: dropping ? 'var(--mantine-color-default-hover)' : undefined,
            textAlign: 'center',
          }}
        >
          <Stack gap={6} align="center">
            <IconPhotoPlus size={32} aria-hidden stroke={1.5} color="var(--mantine-color-brand-6)" />
            <Button
              ref={addRef}
              onClick={() => inputRef.current?.click()}
              disabled={!ready || full}
              aria-describedby="ad-photos-hint ad-photos-types"
              leftSection={<IconPhotoPlus size={18} aria-hidden />}
              size="md"
              radius="xl"
            >
              {t('placing:photos.add')}
            </Button>
            <Text size="sm" c="dimmed">
              {full ? t('placing:photos.full') : t('placing:photos.drop')}
            </Text>
            <Text size="xs" c="dimmed" id="ad-photos-types">
              {t('placing:photos.types')}
            </Text>
          </Stack>
          <input
            ref={inputRef}
            type="file"
            multiple
            accept="image/*"
            hidden
            tabIndex={-1}
            data-testid="ad-photos-input"
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              // The same file may be picked again (e.g. after removing it).
              e.currentTarget.value = '';
              uploads.add(files);
            }}
          />
        </Box>

        {uploads.notice > 0 ? (
          <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {t('placing:photos.too-many', { count: uploads.notice, max: MAX_PHOTOS })}
          </Alert>
        ) : null}
        {blocked || error ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {blocked ?? error}
          </Alert>
        ) : null}

        {items.length > 0 ? (
          <SimpleGrid
            ref={listRef}
            component="ul"
            cols={{ base: 2, xs: 3, md: 4 }}
            spacing="sm"
            aria-label={t('placing:photos.list')}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {items.map((item, index) => {
              const n = index + 1;
              const src = item.thumb ?? item.preview;
              const problem = item.status === 'error' || item.status === 'missing';
              return (
                <li
                  key={item.key}
                  data-photo-key={item.key}
                  data-photo-id={item.id}
                  data-status={item.status}
                  draggable={ready}
                  onDragStart={(e) => onCardDragStart(e, item.key)}
                  onDragOver={(e) => onCardDragOver(e, item.key)}
                  onDrop={(e) => onCardDrop(e, item.key)}
                  onDragEnd={onCardDragEnd}
                  style={{ opacity: dragKey === item.key ? 0.5 : 1, cursor: ready ? 'grab' : undefined }}
                >
                  <Paper
                    withBorder
                    radius="md"
                    style={{
                      overflow: 'hidden',
                      height: '100%',
                      display: 'flex',
                      flexDirection: 'column',
                      borderColor: problem ? 'var(--mantine-color-error)' : undefined,
                      // Where a dragged photo would land.
                      outline:
                        overKey === item.key && dragKey !== item.key
                          ? '2px solid var(--mantine-color-brand-6)'
                          : undefined,
                      outlineOffset: 2,
                    }}
                  >
                    <Box
                      pos="relative"
                      style={{ aspectRatio: '4 / 3', background: 'var(--mantine-color-default-hover)' }}
                    >
                      {src && item.status !== 'missing' ? (
                        <img
                          src={src}
                          alt={t('placing:photos.alt', { n })}
                          draggable={false}
                          onError={() => uploads.lost(item.key)}
                          style={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
                        />
                      ) : (
                        <Box
                          style={{ display: 'grid', placeItems: 'center', height: '100%' }}
                          role="img"
                          aria-label={t('placing:photos.alt', { n })}
                        >
                          <IconPhoto size={32} stroke={1.5} aria-hidden />
                        </Box>
                      )}
                      {item.key === coverKey ? (
                        <Badge pos="absolute" top={6} style={{ insetInlineStart: 6 }} radius="sm">
                          {t('placing:photos.cover')}
                        </Badge>
                      ) : null}
                    </Box>
                    <Stack gap={6} p={6} style={{ flex: 1 }}>
                      {item.status === 'queued' || item.status === 'preparing' || item.status === 'uploading' ? (
                        <>
                          <Text size="xs" aria-hidden>
                            {statusText(item)}
                          </Text>
                          <Progress
                            value={Math.round(item.progress * 100)}
                            aria-label={t('placing:photos.progress', { n })}
                            size="sm"
                            animated={item.status !== 'uploading'}
                            striped={item.status !== 'uploading'}
                          />
                        </>
                      ) : null}
                      {problem ? (
                        <Text size="xs" c="var(--mantine-color-error)" dir="auto">
                          {item.error}
                        </Text>
                      ) : null}
                      {item.status === 'error' && item.file ? (
                        <Button
                          size="compact-sm"
                          variant="default"
                          mih={36}
                          leftSection={<IconRefresh size={16} aria-hidden />}
                          onClick={() => uploads.retry(item.key)}
                          aria-label={t('placing:photos.retry-label', { n })}
                        >
                          {t('placing:photos.retry')}
                        </Button>
                      ) : null}
                      <Group gap={4} justify="space-between" wrap="nowrap" mt="auto">
                        <Group gap={4} wrap="nowrap">
                          <ActionIcon
                            variant="subtle"
                            size="xl"
                            data-action="earlier"
                            disabled={index === 0}
                            aria-label={t('placing:photos.earlier', { n })}
                            onClick={() => {
                              focusNext.current = { key: item.key, action: 'earlier' };
                              uploads.move(item.key, index - 1);
                            }}
                          >
                            <Earlier size={20} aria-hidden />
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            size="xl"
                            data-action="later"
                            disabled={index === items.length - 1}
                            aria-label={t('placing:photos.later', { n })}
                            onClick={() => {
                              focusNext.current = { key: item.key, action: 'later' };
                              uploads.move(item.key, index + 1);
                            }}
                          >
                            <Later size={20} aria-hidden />
                          </ActionIcon>
                        </Group>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          size="xl"
                          data-action="remove"
                          aria-label={t('placing:photos.remove', { n })}
                          onClick={() => {
                            focusNext.current = 'add';
                            uploads.remove(item.key);
                          }}
                        >
                          <IconTrash size={20} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Stack>
                  </Paper>
                </li>
              );
            })}
          </SimpleGrid>
        ) : null}
        {items.length > 0 ? (
          <Text size="sm" c="dimmed">
            {t('placing:photos.count', { added: items.length, max: MAX_PHOTOS })}
          </Text>
        ) : null}

        <VisuallyHidden role="status" aria-live="polite">
          {uploads.announcement}
        </VisuallyHidden>
        {uploads.uploaded.map((p) => (
          <input key={p.id} type="hidden" name="photos" value={p.id} />
        ))}
      </Stack>
    </Fieldset>
  );
}
