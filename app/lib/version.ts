// Client platform (docs/product/site.md): notice new builds, recover from failed code-chunk loads.

/** How often the client asks for the latest build. */
export const VERSION_POLL_MS = 5 * 60 * 1000;
/** At most one automatic reload per path in this window. */
export const RELOAD_THROTTLE_MS = 10_000;

const reloadKey = (path: string) => `souq:reloaded:${path}`;

/**
 * Reloads the page unless this path was reloaded less than RELOAD_THROTTLE_MS ago.
 * Returns whether a reload was started.
 */
export function reloadOnce(
  path = window.location.pathname,
  now = Date.now(),
  storage: Pick<Storage, 'getItem' | 'setItem'> = window.sessionStorage,
  reload: () => void = () => window.location.reload(),
): boolean {
  try {
    const last = Number(storage.getItem(reloadKey(path)) ?? 0);
    if (now - last < RELOAD_THROTTLE_MS) return false;
    storage.setItem(reloadKey(path), String(now));
  } catch {
    // without storage we still reload, but only once per page life
    if ((window as { __souqReloaded?: boolean }).__souqReloaded) return false;
    (window as { __souqReloaded?: boolean }).__souqReloaded = true;
  }
  reload();
  return true;
}

/** A failed dynamic import of a code chunk (usually: a new build replaced the old files). */
export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    event.preventDefault();
    reloadOnce();
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) reloadOnce();
  });
}

/** The build this page was rendered from. */
export function currentBuildId(): string | undefined {
  return (window as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest?.version;
}

export async function fetchLatestBuildId(fetchImpl: typeof fetch = fetch): Promise<string | undefined> {
  const res = await fetchImpl(`/builds/latest.json?t=${Date.now()}`, { cache: 'no-store' });
  if (!res.ok) return undefined;
  const body = (await res.json()) as { id?: unknown };
  return typeof body.id === 'string' ? body.id : undefined;
}
