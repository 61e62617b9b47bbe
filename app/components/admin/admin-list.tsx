// The one list of the back office (docs/product/back-office.md, "Lists"): a search box and filters
// that travel in the URL (a GET form: works without JavaScript), column headers that sort, rows
// that read as labelled cards on a phone, optional bulk actions over ticked rows (a POST form), an
// empty state, and keyset paging (first page / next page). Every screen's list is this component
// with its own columns and words; the loader reads the same query with app/lib/admin-list.ts.
import { Anchor, Box, Button, Checkbox, Group, NativeSelect, Paper, Stack, Table, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp, IconInbox, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { EmptyState } from '~/components/empty-state.tsx';
import { useT } from '~/i18n/use-t.ts';
import { isNarrowed, type ListQuery, type ListSpec, listSearch } from '~/lib/admin-list.ts';
import classes from './admin-list.module.css';
import { ConfirmAction } from './confirm-action.tsx';

export interface AdminColumn<Row> {
  key: string;
  label: string;
  /** The sort this column's header sets (one of the list's `sorts`), if it sorts. */
  sort?: string;
  render: (row: Row) => ReactNode;
  /** The row's main cell: on a phone it heads the card, without its label. */
  primary?: boolean;
}

export interface AdminFilter {
  name: string;
  label: string;
  /** A choice among `options` (the default), free text, or a day. */
  type?: 'select' | 'text' | 'date';
  /** The "any" choice's words (a select). */
  any?: string;
  options?: readonly { value: string; label: string }[];
  /** Words under a text or date field (what it takes). */
  hint?: string;
}

export interface BulkAction {
  intent: string;
  label: string;
  /** Destructive: asks for confirmation with these words first. */
  confirm?: string;
}

export function AdminList<Row>({
  path,
  spec,
  query,
  rows,
  rowKey,
  rowLabel,
  columns,
  next,
  caption,
  search,
  filters = [],
  bulk,
  empty,
}: {
  /** The list's localized path, without its query. */
  path: string;
  spec: ListSpec;
  query: ListQuery;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** How a row is named for a screen reader (its checkbox). */
  rowLabel: (row: Row) => string;
  columns: readonly AdminColumn<Row>[];
  /** The cursor of the next page, or null. */
  next: string | null;
  /** The table's accessible name. */
  caption: string;
  /** The search box's label (no box without it). */
  search?: string;
  filters?: readonly AdminFilter[];
  bulk?: readonly BulkAction[];
  empty: { title: string; description: string };
}) {
  const { t } = useT('admin');
  const navigation = useNavigation();
  const formId = useId();
  const hasTools = search !== undefined || filters.length > 0;
  const narrowed = isNarrowed(query);
  const href = (change: Parameters<typeof listSearch>[2]) => path + listSearch(spec, query, change);

  const toolbar = hasTools ? (
    <Paper withBorder radius="lg" p="sm">
      <Form method="get" action={path} role="search" aria-label={t('list.tools')}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          {search !== undefined ? (
            <TextInput
              type="search"
              name="q"
              label={search}
              defaultValue={query.q}
              maxLength={100}
              leftSection={<IconSearch size={18} aria-hidden />}
              className={classes.search}
            />
          ) : null}
          {filters.map((f) =>
            f.type === 'text' || f.type === 'date' ? (
              <TextInput
                key={f.name}
                type={f.type}
                name={f.name}
                label={f.label}
                description={f.hint}
                defaultValue={query.filters[f.name] ?? ''}
                maxLength={100}
                dir="auto"
                className={classes.filter}
              />
            ) : (
              <NativeSelect
                key={f.name}
                name={f.name}
                label={f.label}
                defaultValue={query.filters[f.name] ?? ''}
                data={[{ value: '', label: f.any ?? '' }, ...(f.options ?? [])]}
                className={classes.filter}
              />
            ),
          )}
          {query.sort !== spec.sorts[0] ? <input type="hidden" name="sort" value={query.sort} /> : null}
          {query.dir !== (spec.directions?.[query.sort] ?? 'desc') ? (
            <input type="hidden" name="dir" value={query.dir} />
          ) : null}
          <Button type="submit" loading={navigation.state === 'loading' && navigation.location?.pathname === path}>
            {t('list.apply')}
          </Button>
          {narrowed ? (
            <Anchor
              component={Link}
              to={href({ q: '', filters: Object.fromEntries(filters.map((f) => [f.name, null])) })}
              py={12}
            >
              {t('list.clear')}
            </Anchor>
          ) : null}
        </Group>
      </Form>
    </Paper>
  ) : null;

  if (rows.length === 0) {
    return (
      <Stack gap="md">
        {toolbar}
        <EmptyState
          icon={<IconInbox size={28} aria-hidden />}
          title={empty.title}
          description={narrowed ? t('list.empty-narrowed') : empty.description}
          action={
            narrowed
              ? {
                  label: t('list.clear'),
                  to: href({ q: '', filters: Object.fromEntries(filters.map((f) => [f.name, null])) }),
                }
              : undefined
          }
        />
        {query.after ? <Pager path={path} spec={spec} query={query} next={null} /> : null}
      </Stack>
    );
  }

  const header = (column: AdminColumn<Row>) => {
    if (!column.sort) return column.label;
    const active = query.sort === column.sort;
    const dir = active ? query.dir : (spec.directions?.[column.sort] ?? 'desc');
    const flipped = active ? (dir === 'asc' ? 'desc' : 'asc') : dir;
    const Icon = !active ? IconArrowsSort : dir === 'asc' ? IconArrowUp : IconArrowDown;
    return (
      <Anchor component={Link} to={href({ sort: column.sort, dir: flipped })} className={classes.sort} c="inherit">
        {column.label}
        <Icon size={16} aria-hidden />
        {active ? (
          <span className={classes.hidden}>{t(dir === 'asc' ? 'list.sorted-asc' : 'list.sorted-desc')}</span>
        ) : null}
      </Anchor>
    );
  };

  const table = (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table className={classes.table} verticalSpacing="sm" highlightOnHover>
        <caption className={classes.hidden}>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            {bulk ? (
              <Table.Th className={classes.select}>
                <SelectAll formId={formId} label={t('list.select-all')} />
              </Table.Th>
            ) : null}
            {columns.map((c) => (
              <Table.Th
                key={c.key}
                aria-sort={
                  c.sort && query.sort === c.sort ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined
                }
              >
                {header(c)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {bulk ? (
                <Table.Td className={classes.select}>
                  <label className="tap-label">
                    <Checkbox name="ids" value={rowKey(row)} aria-label={t('list.select', { name: rowLabel(row) })} />
                  </label>
                </Table.Td>
              ) : null}
              {columns.map((c) => (
                <Table.Td
                  key={c.key}
                  data-label={c.primary ? undefined : c.label}
                  className={c.primary ? classes.primary : undefined}
                >
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  return (
    <Stack gap="md">
      {toolbar}
      {bulk ? (
        <Form method="post" id={formId}>
          <Stack gap="sm">
            <Group gap="sm" wrap="wrap" aria-label={t('list.bulk')} role="group">
              {bulk.map((b) =>
                b.confirm ? (
                  <ConfirmAction key={b.intent} label={b.label} statement={b.confirm} intent={b.intent} />
                ) : (
                  <Button key={b.intent} type="submit" name="intent" value={b.intent} variant="default">
                    {b.label}
                  </Button>
                ),
              )}
            </Group>
            {table}
          </Stack>
        </Form>
      ) : (
        table
      )}
      <Pager path={path} spec={spec} query={query} next={next} />
    </Stack>
  );
}

/** Ticks or clears every row's box of the bulk form (JavaScript only; without it, tick each). */
function SelectAll({ formId, label }: { formId: string; label: string }) {
  return (
    <label className="tap-label">
      <Checkbox
        aria-label={label}
        onChange={(event) => {
          const form = document.getElementById(formId);
          for (const box of form?.querySelectorAll<HTMLInputElement>('input[name="ids"]') ?? []) {
            box.checked = event.currentTarget.checked;
          }
        }}
      />
    </label>
  );
}

function Pager({ path, spec, query, next }: { path: string; spec: ListSpec; query: ListQuery; next: string | null }) {
  const { t } = useT('admin');
  if (!query.after && next === null) return null;
  return (
    <Box component="nav" aria-label={t('list.pages')}>
      <Group justify="space-between" gap="sm">
        {query.after ? (
          <Anchor component={Link} to={path + listSearch(spec, { ...query, after: null })} py={12}>
            {t('list.first-page')}
          </Anchor>
        ) : (
          <span />
        )}
        {next !== null ? (
          <Anchor component={Link} to={path + listSearch(spec, { ...query, after: next })} py={12}>
            {t('list.next-page')}
          </Anchor>
        ) : null}
      </Group>
    </Box>
  );
}
