// The length of a buyer's message to a seller (docs/product/ads.md, "Contact options"), apart from
// its Zod schema (./validation/ads.ts) so the ad page's form can say it without loading Zod.
export const SELLER_MESSAGE_MIN = 10;
export const SELLER_MESSAGE_MAX = 2000;
