// A quiet notice in a page (an ad's state, "report sent"): plain HTML and CSS in the colours of
// Mantine's light alerts, so the public pages that show one need no alert component in their
// first-load JavaScript (docs/performance.md, "Pages on a phone").
import type { ReactNode } from 'react';
import classes from './notice.module.css';

export function Notice({
  tone,
  title,
  children,
}: {
  tone: 'brand' | 'gray' | 'red';
  title?: string;
  children: ReactNode;
}) {
  return (
    <div className={classes.notice} data-tone={tone} role="status">
      {title ? <p className={classes.title}>{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
