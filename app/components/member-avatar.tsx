import type { CSSProperties } from 'react';
import { useState } from 'react';
import classes from './member-avatar.module.css';

/** Up to two letters: the first two of a one-word name, else the first letters of its first two words. */
export function initials(name: string): string {
  const words = name.split(' ');
  return (
    words.length === 1
      ? name.slice(0, 2)
      : words
          .map((w) => w[0] ?? '')
          .join('')
          .slice(0, 2)
  ).toUpperCase();
}

/**
 * A member's round photo (`size` px, 38 by default), or their initials on the brand colour when
 * they have none or it fails to load: the header's and the ad page's seller. It draws as Mantine's
 * filled `Avatar` did, without its script.
 */
export function MemberAvatar({ name, src, size = 38 }: { name: string; src?: string | null; size?: number }) {
  // The photo that failed to load, if any: a new photo is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span className={classes.root} style={{ '--avatar-size': `${size}px` } as CSSProperties} aria-hidden>
      {src && src !== failed ? (
        <img className={classes.image} src={src} alt="" onError={() => setFailed(src)} />
      ) : (
        <span className={classes.placeholder}>{initials(name)}</span>
      )}
    </span>
  );
}
