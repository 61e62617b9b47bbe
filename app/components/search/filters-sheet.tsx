// The filters of a listing on a phone: a sheet that rises from the bottom over nine tenths of the
// screen, with its title, a close button and the form. It is the browser's own modal <dialog>
// rather than Mantine's Drawer, whose modal machinery (focus trap, scroll lock, portal, scroll
// area) weighed about 27 KB of the listing pages' first-load scripts (docs/performance.md,
// "First-load JavaScript"). showModal() gives the rest: the page under it is inert, focus starts on
// the first control (the close button) and stays inside, Escape or a tap beside the sheet closes
// it, and focus goes back to the button that opened it. The page does not scroll under it
// (search.module.css, `.sheet`).
import { CloseButton } from '@mantine/core';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import classes from './search.module.css';

export function FiltersSheet({
  opened,
  onClose,
  title,
  closeLabel,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  closeLabel: string;
  children: React.ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The form is made anew at each opening (it shows the listing's filters, not what was left in it
  // unapplied), and kept while the sheet slides away.
  const [round, setRound] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setRound(round + 1);
  }
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (opened && !d.open) d.showModal();
    else if (!opened && d.open) d.close();
  }, [opened]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is a tap on the backdrop; keys close it with Escape
    <dialog
      ref={dialog}
      className={classes.sheet}
      aria-labelledby={titleId}
      // A tap on the backdrop closes it (`closedby`, where the browser knows it; else the click below).
      closedby="any"
      onClose={onClose}
      onClick={(e) => {
        const d = e.currentTarget;
        if (e.target !== d) return;
        const r = d.getBoundingClientRect();
        const outside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
        if (outside) onClose();
      }}
    >
      <div className={classes.sheetHead}>
        <h2 id={titleId} className={classes.sheetTitle}>
          {title}
        </h2>
        <CloseButton aria-label={closeLabel} onClick={onClose} />
      </div>
      <div className={classes.sheetBody}>{round > 0 ? <Fragment key={round}>{children}</Fragment> : null}</div>
    </dialog>
  );
}
