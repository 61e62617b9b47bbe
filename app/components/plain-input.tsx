import { ComboboxChevron } from '@mantine/core';
import type { ComponentProps, CSSProperties } from 'react';
import classes from './plain-input.module.css';

// Fields that need no script of their own, drawn as Mantine's `TextInput` and `NativeSelect` at
// size "sm" (36 px) and the given radius: the plain element in the same wrapper, so a page that
// has only these leaves Mantine's input components (InputBase, ~5 KB gzipped) out of its first load.
// They take no label of their own: give them `aria-label`.

type Radius = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
const radiusStyle = (radius: Radius) => ({ '--input-radius': `var(--mantine-radius-${radius})` }) as CSSProperties;

export function PlainTextInput({
  className,
  radius = 'sm',
  ...input
}: Omit<ComponentProps<'input'>, 'size'> & { radius?: Radius }) {
  return (
    <div className={`${classes.root}${className ? ` ${className}` : ''}`}>
      <div className={classes.wrapper} style={radiusStyle(radius)}>
        <input className={classes.input} {...input} />
      </div>
    </div>
  );
}

/** A select of `options` (value and label) and groups of them (`group` and `items`). */
export type SelectOption = { value: string; label: string };
export type SelectData = Array<SelectOption | { group: string; items: SelectOption[] }>;

export function PlainSelect({
  className,
  radius = 'sm',
  data,
  ...select
}: Omit<ComponentProps<'select'>, 'size' | 'children'> & { radius?: Radius; data: SelectData }) {
  return (
    <div className={`${classes.root}${className ? ` ${className}` : ''}`}>
      <div className={classes.wrapper} style={radiusStyle(radius)}>
        <select className={`${classes.input} ${classes.select}`} {...select}>
          {data.map((o) =>
            'group' in o ? (
              <optgroup key={o.group} label={o.group}>
                {o.items.map((i) => (
                  <option key={i.value} value={i.value}>
                    {i.label}
                  </option>
                ))}
              </optgroup>
            ) : (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ),
          )}
        </select>
        <div className={classes.chevron}>
          <ComboboxChevron size="sm" />
        </div>
      </div>
    </div>
  );
}
