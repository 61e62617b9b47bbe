// Counting banner impressions in the browser (docs/product/back-office.md, "Banners"): a banner
// counts once per page view when at least half of it has been on screen; the seen ids are sent
// together a moment later, or when the page is hidden or left, with navigator.sendBeacon (a form
// body, which beacons send without asking), to the small API endpoint of server/http/banners.ts.
// The server renders no count: pages come from the page cache (ADR 0007).

/** The API endpoint browsers report seen banners to (server/http/banners.ts). */
export const BANNER_IMPRESSIONS_PATH = '/api/banners/impressions';
/** The most banner ids one report may carry. */
export const IMPRESSIONS_MAX_IDS = 20;

/** How long seen ids wait for others before they are sent. */
const BATCH_MS = 2000;

const pending: number[] = [];
/** Banners counted, by page view (React Router's key of the history entry) and id. */
const counted = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

function send() {
  if (timer) clearTimeout(timer);
  timer = undefined;
  while (pending.length > 0) {
    const ids = [...new Set(pending.splice(0, IMPRESSIONS_MAX_IDS))];
    const body = new URLSearchParams({ ids: ids.join(',') });
    if (!navigator.sendBeacon?.(BANNER_IMPRESSIONS_PATH, body)) {
      void fetch(BANNER_IMPRESSIONS_PATH, { method: 'POST', body, keepalive: true }).catch(() => {});
    }
  }
}

function queue(id: number) {
  pending.push(id);
  if (!listening) {
    listening = true;
    addEventListener('pagehide', send);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') send();
    });
  }
  if (pending.length >= IMPRESSIONS_MAX_IDS) send();
  else timer ??= setTimeout(send, BATCH_MS);
}

/** Watches `element` (banner `id`) until half of it has been seen once; returns the stop. */
export function watchBanner(element: Element, id: number): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting && e.intersectionRatio >= 0.5)) {
        observer.disconnect();
        // Once per page view, even when the banner is drawn again (the hero's carousel replacing its row).
        const view = `${(history.state as { key?: string } | null)?.key ?? location.href}|${id}`;
        if (counted.has(view)) return;
        counted.add(view);
        queue(id);
      }
    },
    { threshold: 0.5 },
  );
  observer.observe(element);
  return () => observer.disconnect();
}
