// The banner form of the back office (docs/product/back-office.md, "Banners"), one schema for the
// browser and the action. Images are four file inputs (`image_<slot>` with `-` as `_`); on an edit
// an empty input keeps the stored image and `remove_<slot>` drops an optional one.
import { z } from 'zod';
import { BANNER_PLACEMENTS, type BannerPlacement, type BannerSlot, isBannerLink, REQUIRED_SLOT } from '../banners.ts';
import { parseId } from '../ids.ts';
import { field, requiredField, rules } from './rules.ts';

/** The largest banner image accepted (before processing); four fit in one form. */
export const BANNER_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const BANNER_TITLE_MAX = 120;
export const BANNER_POSITION_MAX = 9999;

/** The form field of a slot's file input, and of its "remove" box. */
export const imageField = <S extends BannerSlot>(slot: S) => `image_${underscored(slot)}` as ImageField<S>;
export const removeField = <S extends BannerSlot>(slot: S) => `remove_${underscored(slot)}` as RemoveField<S>;
type Underscored<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${B}` : S;
type ImageField<S extends BannerSlot> = `image_${Underscored<S>}`;
type RemoveField<S extends BannerSlot> = `remove_${Underscored<S>}`;
const underscored = <S extends BannerSlot>(slot: S) => slot.replace('-', '_') as Underscored<S>;

/** A file input that may be left empty (undefined), else an image within `maxBytes`. */
const optionalImage = (maxBytes: number) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx): File | undefined => {
      if (typeof File === 'undefined' || !(v instanceof File) || v.size === 0) return undefined;
      if (v.size > maxBytes) {
        ctx.addIssue({ code: 'custom', message: 'image-too-large' });
        return z.NEVER;
      }
      return v;
    });

const box = () =>
  z
    .unknown()
    .optional()
    .transform((v) => v === 'on' || v === 'true' || v === true);

const idField = () => field(rules.numeric(), rules.max(10));

/** `creating`: the required image must come with the form (an edit keeps the stored one). */
export function bannerSchema(options: { creating: boolean }) {
  const image = () => optionalImage(BANNER_IMAGE_MAX_BYTES);
  const images = {
    image_ar_desktop: image(),
    image_ar_mobile: image(),
    image_en_desktop: image(),
    image_en_mobile: image(),
  } satisfies Record<ImageField<BannerSlot>, unknown>;
  const removals = {
    remove_ar_mobile: box(),
    remove_en_desktop: box(),
    remove_en_mobile: box(),
  } satisfies Record<RemoveField<Exclude<BannerSlot, typeof REQUIRED_SLOT>>, unknown>;
  return z
    .object({
      title_ar: requiredField(rules.max(BANNER_TITLE_MAX)),
      title_en: field(rules.max(BANNER_TITLE_MAX)),
      link: requiredField({ code: 'banner-link', check: (v) => isBannerLink(String(v)) }),
      placement: requiredField<BannerPlacement>(rules.oneOf(BANNER_PLACEMENTS)),
      taxonomy: idField(),
      category: idField(),
      city: idField(),
      starts_on: field(rules.date()),
      ends_on: field(rules.date()),
      active: box(),
      position: field<number>(rules.numeric(), {
        code: `max_value:${BANNER_POSITION_MAX}`,
        check: (v) => Number(v) <= BANNER_POSITION_MAX,
        output: (v) => Number(v),
      }),
      ...images,
      ...removals,
    })
    .superRefine((v, ctx) => {
      if (v.starts_on && v.ends_on && v.ends_on < v.starts_on) {
        ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'ends-before-start' });
      }
      if (options.creating && !v[imageField(REQUIRED_SLOT)]) {
        ctx.addIssue({ code: 'custom', path: [imageField(REQUIRED_SLOT)], message: 'required' });
      }
    });
}
export type BannerFormValue = z.output<ReturnType<typeof bannerSchema>>;

/** The list's bulk actions. */
export const BANNER_BULK_INTENTS = ['activate', 'deactivate', 'delete'] as const;

/** Banners one bulk action may touch (a page of the list is 25). */
export const BANNER_BULK_MAX = 100;

/** The ticked banners of the list: one value or many; ids only, each once; at least one. */
export const bannerIdsField = z.unknown().transform((v, ctx) => {
  const list = (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]).map(parseId);
  if (list.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'required' });
    return z.NEVER;
  }
  if (list.some((id) => id === null) || list.length > BANNER_BULK_MAX) {
    ctx.addIssue({ code: 'custom', message: 'invalid' });
    return z.NEVER;
  }
  return [...new Set(list as number[])];
});
