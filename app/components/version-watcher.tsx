import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { currentBuildId, fetchLatestBuildId, VERSION_POLL_MS } from '~/lib/version.ts';

/**
 * Polls /builds/latest.json; once a newer build is out, the next navigation becomes a full page
 * load so the visitor gets the new code without losing what they were doing.
 */
export function VersionWatcher() {
  const stale = useRef(false);
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => {
    const check = () => {
      if (stale.current || document.visibilityState === 'hidden') return;
      fetchLatestBuildId()
        .then((latest) => {
          const mine = currentBuildId();
          if (latest && mine && latest !== mine) stale.current = true;
        })
        .catch(() => {
          // offline or server restarting: try again at the next tick
        });
    };
    const timer = window.setInterval(check, VERSION_POLL_MS);
    document.addEventListener('visibilitychange', check);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (stale.current) window.location.reload();
  }, [location.key]);

  return null;
}
