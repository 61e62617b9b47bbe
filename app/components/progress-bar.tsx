import { createNprogress, NavigationProgress } from '@mantine/nprogress';
import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router';

/** Page-load bar constants (docs/product/site.md). */
export const PROGRESS = { throttle: 200, duration: 2000, hideDelay: 500, resetDelay: 400, height: 3 } as const;

const [store, progress] = createNprogress();

/** Green 3 px bar shown for navigations that take longer than the throttle. */
export function PageLoadBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const shown = useRef(false);

  useEffect(() => {
    const timers: number[] = [];
    if (busy) {
      timers.push(
        window.setTimeout(() => {
          shown.current = true;
          progress.start();
        }, PROGRESS.throttle),
      );
    } else if (shown.current) {
      shown.current = false;
      progress.stop();
      progress.set(100);
      timers.push(
        window.setTimeout(() => {
          store.setState({ ...store.getState(), mounted: false });
          timers.push(window.setTimeout(() => progress.reset(), PROGRESS.resetDelay));
        }, PROGRESS.hideDelay),
      );
    }
    return () => {
      for (const t of timers) window.clearTimeout(t);
    };
  }, [busy]);

  // About 25 steps take the bar to 80 %: spread them over the expected duration.
  // Decorative: assistive technology hears the page change, not the bar.
  return (
    <NavigationProgress
      store={store}
      size={PROGRESS.height}
      color="brand.6"
      stepInterval={PROGRESS.duration / 25}
      aria-hidden
    />
  );
}
