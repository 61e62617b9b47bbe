import { useEffect, useRef, useState } from 'react';
import { useNavigation } from 'react-router';
import classes from './progress-bar.module.css';

/** Page-load bar constants (docs/product/site.md). */
export const PROGRESS = { throttle: 200, duration: 2000, hideDelay: 500, resetDelay: 400, height: 3 } as const;

/**
 * Green 3 px bar shown for navigations that take longer than the throttle: it creeps towards 80 %
 * over the expected duration, fills when the page has come, then fades. CSS transitions
 * (progress-bar.module.css) rather than @mantine/nprogress, whose store and Progress component were
 * 2 KB of every page's first-load scripts (docs/performance.md).
 */
export function PageLoadBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const [phase, setPhase] = useState<'idle' | 'loading' | 'done'>('idle');
  const shown = useRef(false);

  useEffect(() => {
    const timers: number[] = [];
    if (busy) {
      // A bar still fading from the last navigation starts again from nothing.
      setPhase((p) => (p === 'done' ? 'idle' : p));
      timers.push(
        window.setTimeout(() => {
          shown.current = true;
          setPhase('loading');
        }, PROGRESS.throttle),
      );
    } else if (shown.current) {
      shown.current = false;
      setPhase('done');
      timers.push(window.setTimeout(() => setPhase('idle'), PROGRESS.hideDelay + PROGRESS.resetDelay));
    }
    return () => {
      for (const t of timers) window.clearTimeout(t);
    };
  }, [busy]);

  // Decorative: assistive technology hears the page change, not the bar.
  return (
    <div
      className={classes.bar}
      data-phase={phase}
      aria-hidden
      style={
        {
          '--bar-height': `${PROGRESS.height}px`,
          '--bar-duration': `${PROGRESS.duration}ms`,
          '--bar-hide-delay': `${PROGRESS.hideDelay}ms`,
        } as React.CSSProperties
      }
    />
  );
}
