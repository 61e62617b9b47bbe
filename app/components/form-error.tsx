// A form's error as a whole (rate limits, refusals), apart from the form helpers of form-parts.tsx:
// pages that only show one (an ad, search) load neither Conform nor Zod for it, and the alert
// itself loads only when there is an error to show (./form-error-alert.tsx), out of every page's
// first-load JavaScript.
import { Suspense } from 'react';
import { lazyComponent } from '~/lib/lazy-component.tsx';

export { useFormErrorText } from './form-error-text.ts';

const FormErrorAlert = lazyComponent(() => import('./form-error-alert.tsx'));
// The server renders the alert in place on every request (app/lib/lazy-component.tsx): its module
// is loaded before the first one.
if (import.meta.env.SSR) await FormErrorAlert.preload();

/**
 * A form-level error: `too-many:<minutes>` (rate limit) or an error code of the `errors`
 * namespace (e.g. `invalid-credential`), with an optional count (`allowance-exceeded:5`).
 */
export function FormError({ code }: { code: unknown }) {
  return typeof code === 'string' && code ? (
    <Suspense fallback={null}>
      <FormErrorAlert code={code} />
    </Suspense>
  ) : null;
}
