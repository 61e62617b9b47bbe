// Starts the realtime client for a signed-in member once the page has hydrated, with a dynamic
// import: pusher-js and laravel-echo are in no page's first load, and visitors never fetch them
// (docs/realtime.md, "The browser client"). It reconnects when the member or the configuration
// changes and disconnects on sign-out.
import { useEffect } from 'react';
import type { BrowserRealtimeConfig } from './config.ts';

export function useMemberRealtime(userId: string | null, config: BrowserRealtimeConfig | null): void {
  // The loader sends a new object on every navigation: the connection follows its content.
  const settings = config ? JSON.stringify(config) : null;
  useEffect(() => {
    if (!userId || !settings) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    import('./client.ts')
      .then(({ connectMember }) => {
        if (!cancelled) stop = connectMember(JSON.parse(settings) as BrowserRealtimeConfig, userId);
      })
      .catch((error) => console.warn('realtime: the client did not start', error));
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, settings]);
}
