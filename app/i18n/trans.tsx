// A sentence with parts that are elements, e.g. links: the catalogue marks each part with a tag
// named after its element, `"I accept the <terms>terms of use</terms> and …"`, and
// `<Trans t={t} i18nKey="register.terms" components={{ terms: <Anchor … /> }} />` renders the
// sentence with the marked words inside that element. Tags are not nested; a tag naming no given
// element stays as written, so a catalogue mistake shows instead of losing words.
import { cloneElement, type ReactElement, type ReactNode } from 'react';
import type { TFunction, TOptions } from './translator.ts';

const MARKED = /<(\w+)>(.*?)<\/\1>/g;

export function Trans({
  t,
  i18nKey,
  values,
  components,
}: {
  t: TFunction;
  i18nKey: string;
  values?: TOptions;
  components: Readonly<Record<string, ReactElement<{ children?: ReactNode }>>>;
}) {
  const text = t(i18nKey, values);
  const parts: ReactNode[] = [];
  let from = 0;
  for (const m of text.matchAll(MARKED)) {
    const element = components[m[1] as string];
    if (!element) continue;
    parts.push(text.slice(from, m.index), cloneElement(element, { key: m.index }, m[2]));
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}
