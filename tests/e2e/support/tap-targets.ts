// Tap targets of at least 44 × 44 CSS px on phones (docs/product/site.md, "Tap targets"). Every
// visible control counts, with these exemptions only (WCAG 2.5.8's inline and user-agent cases):
// - a link inside running text: its block holds words of its own besides the link;
// - a disabled control: nothing happens when it is tapped.
// A checkbox or radio counts with its labels: tapping a label ticks it.
import type { Page } from '@playwright/test';

export const MIN_TARGET = 44;

export interface SmallTarget {
  what: string;
  width: number;
  height: number;
}

/** The visible controls of the page smaller than 44 × 44 px, described for a failure message. */
export async function smallTargets(page: Page): Promise<SmallTarget[]> {
  return page.evaluate((min) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="link"]',
      '[role="tab"]',
      '[role="option"]',
      '[role="checkbox"]',
      '[role="radio"]',
      '[role="switch"]',
      '[role="menuitem"]',
    ].join(',');
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return false;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) return false;
      // Inside a closed drawer, a hidden panel or an element hidden from everyone.
      return !el.closest('[hidden], [aria-hidden="true"], [inert]');
    };
    /** A link in a sentence: the nearest block around it has text of its own. */
    const inline = (el: Element) => {
      if (el.tagName !== 'A') return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
      if (!block) return false;
      const own = (block.textContent ?? '').replace(el.textContent ?? '', '').replace(/\s+/g, '');
      return own.length > 1 && getComputedStyle(el).display.startsWith('inline');
    };
    const box = (el: Element) => {
      const rects = [el.getBoundingClientRect()];
      // A password field's box holds its input and the show-password button.
      const field = el.closest('.mantine-PasswordInput-input');
      if (field) rects.push(field.getBoundingClientRect());
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        for (const label of Array.from(el.labels ?? [])) rects.push(label.getBoundingClientRect());
      }
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      const top = Math.min(...rects.map((r) => r.top));
      const bottom = Math.max(...rects.map((r) => r.bottom));
      return { width: right - left, height: bottom - top };
    };
    const nameOf = (el: Element) => {
      const name =
        el.getAttribute('aria-label') ??
        (el instanceof HTMLInputElement ? (el.labels?.[0]?.textContent ?? el.name) : el.textContent) ??
        '';
      return `<${el.tagName.toLowerCase()}${el.getAttribute('type') ? ` type=${el.getAttribute('type')}` : ''}> "${name.trim().slice(0, 40)}"`;
    };
    const small: { what: string; width: number; height: number }[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      const choice = el instanceof HTMLInputElement && ['checkbox', 'radio'].includes(el.type);
      // A hidden input (a switch's, a photo picker's) counts when a visible label stands for it.
      if (!visible(el) && !(choice && Array.from((el as HTMLInputElement).labels ?? []).some(visible))) continue;
      if (inline(el)) continue;
      if ((el as HTMLInputElement).disabled || el.getAttribute('aria-disabled') === 'true') continue;
      const { width, height } = box(el);
      // Half a pixel of rounding: 43.5 px renders as 44 on a 2× screen.
      if (width < min - 0.5 || height < min - 0.5)
        small.push({ what: nameOf(el), width: Math.round(width), height: Math.round(height) });
    }
    return small;
  }, MIN_TARGET);
}
