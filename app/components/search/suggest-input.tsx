// A search field that suggests as it is typed (docs/product/search.md, "Suggestions"): the ARIA
// combobox pattern over GET /api/search/suggest. The input stays a plain `q` field of its form, so
// without JavaScript (or when nothing is picked) the form submits a normal search. Arrow keys move
// through the list, Enter picks (leads to the suggestion's page), Escape closes; requests wait
// DEBOUNCE_MS after the last key and a newer one aborts the one before.
import { type InputHTMLAttributes, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { Suggestion } from '../../../server/domain/search/suggest.ts';
import classes from './suggest.module.css';

const DEBOUNCE_MS = 150;

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'role' | 'type' | 'name'> & { id: string };

export function SuggestInput(props: Props) {
  const { t } = useT();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const listId = `${useId()}-suggestions`;
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<AbortController | null>(null);

  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    pending.current?.abort();
  };
  // Nothing left running once the field is gone (the refs are stable).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cleanup reads only refs
  useEffect(() => stop, []);

  const ask = (q: string) => {
    stop();
    if (q.trim() === '') {
      setItems([]);
      setOpen(false);
      return;
    }
    timer.current = setTimeout(async () => {
      const controller = new AbortController();
      pending.current = controller;
      try {
        const url = `/api/search/suggest?${new URLSearchParams({ q: q.slice(0, 100), locale })}`;
        const res = await fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } });
        if (!res.ok) return;
        const { data } = (await res.json()) as { data: Suggestion[] };
        if (controller.signal.aborted) return;
        setItems(data);
        setActive(-1);
        setOpen(data.length > 0);
      } catch {
        // Aborted by a newer request, or offline: the box stays a plain search field.
      }
    }, DEBOUNCE_MS);
  };

  const pick = (s: Suggestion, input: HTMLInputElement | null) => {
    stop();
    if (input) input.value = s.text;
    setOpen(false);
    navigate(s.href);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      if (open) e.preventDefault();
      setOpen(false);
      setActive(-1);
      return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (items.length === 0) return;
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(e.key === 'ArrowDown' ? 0 : items.length - 1);
        return;
      }
      // Past either end back to the text as typed (-1), then round again.
      if (e.key === 'ArrowDown') setActive((i) => (i + 1 >= items.length ? -1 : i + 1));
      else setActive((i) => (i < 0 ? items.length - 1 : i - 1));
      return;
    }
    if (e.key === 'Enter' && open && active >= 0 && items[active]) {
      e.preventDefault();
      pick(items[active] as Suggestion, e.currentTarget);
    }
  };

  const expanded = open && items.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <>
      <input
        {...props}
        name="q"
        type="search"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        onInput={(e) => ask(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          // After a click on an option (which keeps the focus from moving: see onMouseDown).
          setOpen(false);
        }}
      />
      <div id={listId} role="listbox" aria-label={t('search.suggestions')} className={classes.list} hidden={!expanded}>
        {items.map((s, i) => (
          // The input keeps the focus and handles the keys (aria-activedescendant); a pointer picks by click.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys
          <div
            key={s.href}
            id={optionId(i)}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className={classes.option}
            data-kind={s.kind}
            onMouseDown={(e) => {
              // The input keeps the focus; the pick happens on click.
              e.preventDefault();
            }}
            onClick={(e) => pick(s, e.currentTarget.closest('form')?.querySelector('input[name="q"]') ?? null)}
          >
            <span className={classes.optionLabel} dir="auto">
              {s.label}
            </span>
            {s.kind === 'category' ? (
              <span className={classes.optionContext}>
                {s.context ? t('search.in-category', { name: s.context }) : t('search.category')}
                {s.count !== null ? ` · ${t('search.ads', { count: s.count })}` : ''}
              </span>
            ) : null}
          </div>
        ))}
      </div>
    </>
  );
}
