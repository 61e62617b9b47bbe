// Banners (docs/product/back-office.md, "Banners"): where they show, their image slots and the
// shape each place gives them. Shared by the public pages, the back office and the server.

export const BANNER_PLACEMENTS = ['home-hero', 'home-inline', 'listing-top', 'ad-sidebar'] as const;
export type BannerPlacement = (typeof BANNER_PLACEMENTS)[number];

/** Placements on the home page: shown to everyone, no targeting (the page has no taxonomy, category or city). */
export const HOME_PLACEMENTS: readonly BannerPlacement[] = ['home-hero', 'home-inline'];
export const isHomePlacement = (p: BannerPlacement) => HOME_PLACEMENTS.includes(p);

/** How many banners a place shows at once: the hero is a carousel, the others one banner. */
export const PLACEMENT_LIMIT: Record<BannerPlacement, number> = {
  'home-hero': 6,
  'home-inline': 1,
  'listing-top': 1,
  'ad-sidebar': 1,
};

/** What a banner is now: showing, waiting for its first day, past its last day, or switched off. */
export const BANNER_STATES = ['live', 'scheduled', 'ended', 'off'] as const;
export type BannerState = (typeof BANNER_STATES)[number];
/** The orders of the back office's list (the first is the default). */
export const BANNER_SORTS = ['position', 'created_at'] as const;
export type BannerSort = (typeof BANNER_SORTS)[number];

export const BANNER_SLOTS = ['ar-desktop', 'ar-mobile', 'en-desktop', 'en-mobile'] as const;
export type BannerSlot = (typeof BANNER_SLOTS)[number];
/** The one image every banner must have; the others fall back to it (bannerSlotFor). */
export const REQUIRED_SLOT = 'ar-desktop' satisfies BannerSlot;

/**
 * The slot an image is taken from for a page language and screen: the language's own image for
 * that screen, else its wide image, else the Arabic image for that screen, else the Arabic wide one
 * (the language of a banner's words matters more than its shape, which the page crops to).
 */
export function bannerSlotFor(
  has: (slot: BannerSlot) => boolean,
  locale: 'ar' | 'en',
  screen: 'desktop' | 'mobile',
): BannerSlot {
  const order: BannerSlot[] = [`${locale}-${screen}`, `${locale}-desktop`, `ar-${screen}`, 'ar-desktop'];
  return order.find(has) ?? 'ar-desktop';
}

/**
 * The box each place gives a banner (width / height), on wide screens and below `NARROW_MAX_EM`:
 * the page reserves it before the image arrives (no layout shift) and the image covers it, cropped
 * at the edges when its own shape differs. The back office states these as recommended sizes.
 */
export const PLACEMENT_SHAPE: Record<BannerPlacement, { desktop: [number, number]; mobile: [number, number] }> = {
  'home-hero': { desktop: [1600, 500], mobile: [800, 400] },
  'home-inline': { desktop: [1200, 200], mobile: [900, 300] },
  'listing-top': { desktop: [1200, 200], mobile: [900, 300] },
  'ad-sidebar': { desktop: [600, 500], mobile: [900, 450] },
};

/** The narrow-screen images are for screens up to this width (Mantine's `sm` breakpoint, 48em). */
export const NARROW_MEDIA = '(max-width: 47.99em)';

/** How wide a place's banner is drawn, for an image's `sizes` (the page's container is 1200 px at most). */
export const PLACEMENT_SIZES: Record<BannerPlacement, string> = {
  'home-hero': '(min-width: 75em) 1200px, 100vw',
  'home-inline': '(min-width: 75em) 1200px, 100vw',
  'listing-top': '(min-width: 75em) 900px, 100vw',
  'ad-sidebar': '(min-width: 62em) 400px, 100vw',
};

/** The longest link a banner takes. */
export const BANNER_LINK_MAX = 500;

/**
 * Whether `link` may be a banner's link: an absolute http(s) URL without credentials, or a path of
 * this site (`/posts?city=tripoli`: one leading slash, not `//` nor `/\`, which browsers read as
 * another host). No spaces or control characters.
 */
export function isBannerLink(link: string): boolean {
  if (link.length === 0 || link.length > BANNER_LINK_MAX) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\s\u0000-\u001f\u007f\\]/.test(link)) return false;
  if (link.startsWith('/')) return !link.startsWith('//');
  try {
    const url = new URL(link);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !!url.hostname && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** The tracked redirect of a banner (server/http/banners.ts); the English one keeps site links in English. */
export const bannerClickPath = (id: number, locale: 'ar' | 'en') => `${locale === 'en' ? '/en' : ''}/b/${id}`;
