import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical } from '@tabler/icons-react';
import { type DragEvent, useEffect, useState } from 'react';
import { data, Form, Link, redirect, useSubmit } from 'react-router';
import { z } from 'zod';
import { AdminSection, IntentSubmit } from '~/components/admin/admin-section.tsx';
import { AttributeEditor, type AttributeReply, useImpactWords } from '~/components/admin/attribute-editor.tsx';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { NameInputs } from '~/components/admin/name-inputs.tsx';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { CategoryIcon, categoryIconNames } from '~/lib/category-icons.tsx';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, notFound, services, tFor } from '~/lib/route.server.ts';
import { SLUG_PATTERN } from '~/lib/slug.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  ATTRIBUTES_SEGMENT,
  activeSchema,
  categorySchema,
  moveSchema,
  orderSchema,
} from '~/lib/validation/catalogue.ts';
import { can } from '../../../server/domain/access.ts';
import {
  type AdminCategory,
  type AdminCategoryPlace,
  createCategory,
  deactivationImpact,
  findAdminCategoryPlace,
  listAdminChildren,
  listAdminTaxonomies,
  listInheritedAttributes,
  listMoveTargets,
  listOwnAttributes,
  moveCategory,
  moveImpact,
  orderChildren,
  setCategoryActive,
  stepCategory,
  updateCategory,
} from '../../../server/domain/admin/catalogue.ts';
import type { Route } from './+types/categories';
import { askAgain, attributeAction, type CatalogueReply, outcomeReply } from './catalogue.server.ts';

// The category tree (docs/product/back-office.md, "Catalogue"): `/admin/categories` lists the
// taxonomies; `/admin/categories/{taxonomy}` the top of one; `/admin/categories/{taxonomy}/{category…}`
// a category with its children — create a child, rename (names, slug, icon), move, reorder (drag,
// or the up and down buttons), switch off and on — and `…/attributes` its own attributes. Reading
// needs `view-categories`; every change, and the attributes page, `update-categories`.

export const middleware = guards('acl:view-categories');

/** The path's segments and whether it asks for the attributes page; null: not a path of ours. */
function parsePath(splat: string | undefined): { slugs: string[]; attributes: boolean } | null {
  const parts = (splat ?? '').split('/').filter((p) => p !== '');
  const attributes = parts.length >= 2 && parts[parts.length - 1] === ATTRIBUTES_SEGMENT;
  const slugs = attributes ? parts.slice(0, -1) : parts;
  if (slugs.length > 12 || !slugs.every((s) => SLUG_PATTERN.test(s))) return null;
  return { slugs, attributes };
}

const adminPath = (canonical: string[], attributes = false) =>
  `/admin/categories${canonical.length ? `/${canonical.join('/')}` : ''}${attributes ? `/${ATTRIBUTES_SEGMENT}` : ''}`;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const path = parsePath(params['*']);
  if (!path) throw notFound(request);
  const { user } = await requireStaff(request, context, path.attributes ? 'update-categories' : 'view-categories');
  const database = db(context);
  const t = tFor(request);
  const locale = localeOf(request);
  const canEdit = can(user, 'update-categories');
  if (path.slugs.length === 0) {
    const taxonomies = await listAdminTaxonomies(database, { q: '', sort: 'position', dir: 'asc', after: null }, 200);
    return {
      view: 'index' as const,
      meta: { title: t('admin:catalog.categories.title'), noindex: true },
      taxonomies: taxonomies.rows,
    };
  }
  const place = await findAdminCategoryPlace(database, path.slugs);
  if (place.canonical.join('/') !== path.slugs.join('/')) {
    throw redirect(localizePath(adminPath(place.canonical, path.attributes), locale) + new URL(request.url).search);
  }
  const node = place.trail[place.trail.length - 1] ?? null;
  const label = (r: { name_ar: string; name_en: string }) => (locale === 'ar' ? r.name_ar : r.name_en);
  if (path.attributes && node) {
    const [attributes, inherited] = await Promise.all([
      listOwnAttributes(database, { kind: 'category', id: node.id }),
      listInheritedAttributes(database, node.id),
    ]);
    return {
      view: 'attributes' as const,
      meta: { title: t('admin:catalog.attribute.title', { name: label(node) }), noindex: true },
      place,
      attributes,
      inherited,
    };
  }
  const children = await listAdminChildren(database, place.taxonomy.id, node?.id ?? null);
  const [targets, moving, hiding] =
    node && canEdit
      ? await Promise.all([
          listMoveTargets(database, node.id),
          moveImpact(database, node.id),
          deactivationImpact(database, node.id),
        ])
      : [[], { ads: 0 }, { ads: 0 }];
  return {
    view: 'tree' as const,
    meta: { title: `${label(node ?? place.taxonomy)} · ${t('admin:catalog.categories.title')}`, noindex: true },
    place,
    children,
    canEdit,
    canTaxonomyAttributes: can(user, 'update-taxonomies'),
    targets,
    moveAds: moving.ads,
    hideAds: hiding.ads,
  };
}

const nothing = z.object({});

export async function action({ request, params, context }: Route.ActionArgs) {
  const path = parsePath(params['*']);
  if (!path || path.slugs.length === 0) throw notFound(request);
  const { actor } = await requireStaff(request, context, 'update-categories');
  const form = await request.formData();
  const locale = localeOf(request);
  const place = await findAdminCategoryPlace(db(context), path.slugs);
  const node = place.trail[place.trail.length - 1] ?? null;
  const here = localizePath(adminPath(place.canonical, path.attributes), locale);
  if (path.attributes) {
    if (!node) throw notFound(request);
    return attributeAction(request, context, form, 'update-categories', { kind: 'category', id: node.id }, here);
  }
  const handle = services(context).database;
  const intent = String(form.get('intent') ?? '');
  const extra = { extra: { form: intent } };
  /** The category's page wherever it is now (after a new slug or a move). */
  const whereNow = async (category: AdminCategory) => {
    const now = await findAdminCategoryPlace(db(context), ['_', category.slug]);
    return localizePath(adminPath(now.canonical), locale);
  };
  const needNode = () => {
    if (!node) throw new Response(null, { status: 400, statusText: 'Bad Request' });
    return node;
  };
  switch (intent) {
    case 'create':
      return formAction(
        form,
        categorySchema,
        async (value) => {
          await createCategory(handle, actor, { taxonomyId: place.taxonomy.id, parentId: node?.id ?? null }, value);
          return redirectWithFlash(here, 'admin-created');
        },
        extra,
      );
    case 'rename':
      return formAction(
        form,
        categorySchema,
        async (value) =>
          redirectWithFlash(await whereNow(await updateCategory(handle, actor, needNode().id, value)), 'admin-saved'),
        extra,
      );
    case 'move':
      return formAction(
        form,
        moveSchema,
        async (value, { kept }) => {
          const outcome = await moveCategory(handle, actor, needNode().id, value.target, value.confirmed);
          if (!outcome.done) return askAgain(kept(), outcome.impact);
          // Its page is under its new parent now.
          return redirectWithFlash(await whereNow(outcome.value), 'admin-saved');
        },
        extra,
      );
    case 'deactivate':
    case 'activate':
      return formAction(
        form,
        activeSchema,
        async (value, { kept }) =>
          outcomeReply(
            await setCategoryActive(handle, actor, needNode().id, intent === 'activate', value.confirmed),
            kept,
            () => redirectWithFlash(here, 'admin-saved'),
          ),
        extra,
      );
    case 'up':
    case 'down': {
      const id = parseId(form.get('id'));
      const child =
        id === null
          ? undefined
          : (await listAdminChildren(db(context), place.taxonomy.id, node?.id ?? null)).find((c) => c.id === id);
      if (!child) throw new Response(null, { status: 400, statusText: 'Bad Request' });
      return formAction(
        form,
        nothing,
        async () => {
          await stepCategory(handle, actor, child.id, intent);
          return redirectWithFlash(here, 'admin-saved');
        },
        extra,
      );
    }
    case 'order':
      return formAction(
        form,
        orderSchema,
        async (value) => {
          await orderChildren(
            handle,
            actor,
            { taxonomyId: place.taxonomy.id, parentId: node?.id ?? null },
            value.order,
          );
          return redirectWithFlash(here, 'admin-saved');
        },
        extra,
      );
    default:
      return data(null, { status: 400 });
  }
}

export const meta: Route.MetaFunction = routeMeta;

type Reply = (CatalogueReply & AttributeReply) | undefined;

function Crumbs({ place, attributes }: { place: AdminCategoryPlace; attributes?: boolean }) {
  const { t } = useT('admin');
  const { to, name } = useLocale();
  const items = [
    { label: t('catalog.categories.title'), href: to('/admin/categories') },
    { label: name(place.taxonomy), href: to(adminPath([place.taxonomy.slug])) },
    ...place.trail.map((c, i) => ({
      label: name(c),
      href: to(adminPath(place.canonical.slice(0, i + 2))),
    })),
  ];
  const shown = attributes ? items : items.slice(0, -1);
  return (
    <Box component="nav" aria-label={t('catalog.categories.breadcrumbs')}>
      <Group component="ol" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
        {shown.map((c, i) => (
          <Group component="li" key={c.href} gap={6} wrap="nowrap">
            {i > 0 ? (
              <Text span c="dimmed" aria-hidden>
                ›
              </Text>
            ) : null}
            <Anchor component={Link} to={c.href} size="sm" py={10}>
              {c.label}
            </Anchor>
          </Group>
        ))}
      </Group>
    </Box>
  );
}

/** Names, slug and icon: the form of a new child and of a rename. */
function CategoryForm({
  intent,
  initial,
  reply,
  submit,
}: {
  intent: 'create' | 'rename';
  initial: { slug: string; name_ar: string; name_en: string; icon: string | null } | null;
  reply: Reply;
  submit: string;
}) {
  const { t } = useT('admin');
  const error = useFieldError();
  const mine = reply?.result?.form === intent ? reply : undefined;
  const [form, fields] = useValidatedForm(
    `category-${intent}`,
    categorySchema,
    mine?.result as SubmissionResult<string[]>,
    {
      slug: initial?.slug ?? '',
      name_ar: initial?.name_ar ?? '',
      name_en: initial?.name_en ?? '',
      icon: initial?.icon ?? '',
    },
  );
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <Stack gap="sm">
        <FormError code={mine?.formError} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NameInputs
            ar={fields.name_ar}
            en={fields.name_en}
            labels={[t('catalog.category.name-ar'), t('catalog.category.name-en')]}
            error={error}
          />
          <TextInput
            {...getInputProps(fields.slug, { type: 'text' })}
            key={fields.slug.key}
            label={t('catalog.category.slug')}
            description={intent === 'rename' ? t('catalog.category.slug-hint') : undefined}
            dir="ltr"
            error={error(fields.slug)}
            withAsterisk
          />
          <NativeSelect
            {...getInputProps(fields.icon, { type: 'text' })}
            key={fields.icon.key}
            label={t('catalog.category.icon')}
            data={[
              { value: '', label: t('catalog.category.no-icon') },
              ...categoryIconNames.map((n) => ({ value: n, label: n })),
            ]}
            dir="ltr"
            error={error(fields.icon)}
          />
        </SimpleGrid>
        <Group>
          <IntentSubmit named intent={intent}>
            {submit}
          </IntentSubmit>
        </Group>
      </Stack>
    </Form>
  );
}

/** The children, reordered by dragging (with JavaScript) or by their up and down buttons. */
function Children({ items, canEdit, base }: { items: AdminCategory[]; canEdit: boolean; base: string[] }) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const number = numberFormat(locale);
  const submit = useSubmit();
  const [order, setOrder] = useState(items);
  const [dragged, setDragged] = useState<number | null>(null);
  useEffect(() => setOrder(items), [items]);
  if (order.length === 0) return <Text c="dimmed">{t('catalog.categories.no-children')}</Text>;
  const over = (event: DragEvent, id: number) => {
    if (dragged === null || dragged === id) return;
    event.preventDefault();
    const from = order.findIndex((c) => c.id === dragged);
    const to = order.findIndex((c) => c.id === id);
    const next = [...order];
    next.splice(to, 0, ...next.splice(from, 1));
    setOrder(next);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragged(null);
    if (order.map((c) => c.id).join(',') === items.map((c) => c.id).join(',')) return;
    submit({ intent: 'order', order: order.map((c) => c.id).join(',') }, { method: 'post' });
  };
  return (
    <Stack
      component="ol"
      gap="xs"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={t('catalog.categories.children')}
    >
      {order.map((c, i) => (
        <Card
          key={c.id}
          component="li"
          withBorder
          radius="md"
          padding="xs"
          draggable={canEdit}
          onDragStart={(e: DragEvent) => {
            setDragged(c.id);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(c.id));
          }}
          onDragOver={(e: DragEvent) => over(e, c.id)}
          onDrop={drop}
          onDragEnd={() => setDragged(null)}
          data-category={c.slug}
          style={{ opacity: dragged === c.id ? 0.5 : 1 }}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              {canEdit ? <IconGripVertical size={18} aria-hidden style={{ cursor: 'grab', flexShrink: 0 }} /> : null}
              <CategoryIcon name={c.icon} size={22} />
              <Box style={{ minWidth: 0 }}>
                <Anchor component={Link} to={to(adminPath([...base, c.slug]))} fw={600} py={6} display="inline-block">
                  {name(c)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  <bdi dir="ltr">{c.slug}</bdi> ·{' '}
                  {t('catalog.categories.child-counts', {
                    count: c.ads_count,
                    ads: number.format(c.ads_count),
                    children: number.format(c.children_count),
                  })}
                </Text>
              </Box>
              {c.active ? null : (
                <Badge variant="light" color="gray" tt="none">
                  {t('catalog.inactive')}
                </Badge>
              )}
            </Group>
            {canEdit ? (
              <Group gap={4} wrap="nowrap">
                {(['up', 'down'] as const).map((dir) => (
                  <Form method="post" key={dir}>
                    <input type="hidden" name="id" value={c.id} />
                    <Button
                      type="submit"
                      name="intent"
                      value={dir}
                      variant="default"
                      mih={44}
                      miw={44}
                      px={0}
                      disabled={dir === 'up' ? i === 0 : i === order.length - 1}
                      aria-label={t(`catalog.categories.${dir}`, { name: name(c) })}
                    >
                      {dir === 'up' ? <IconArrowUp size={18} aria-hidden /> : <IconArrowDown size={18} aria-hidden />}
                    </Button>
                  </Form>
                ))}
              </Group>
            ) : null}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

type TreeData = Extract<Route.ComponentProps['loaderData'], { view: 'tree' }>;

function MoveForm({ data: d, reply }: { data: TreeData; reply: Reply }) {
  const { t } = useT('admin');
  const { name, locale } = useLocale();
  const number = numberFormat(locale);
  const impactWords = useImpactWords();
  const error = useFieldError();
  const mine = reply?.result?.form === 'move' ? reply : undefined;
  const asked = mine?.impact;
  const ads = asked?.ads ?? d.moveAds;
  const node = d.place.trail[d.place.trail.length - 1] as AdminCategory;
  const current = node.parent_id === null ? `t:${node.taxonomy_id}` : `c:${node.parent_id}`;
  const targetError = mine?.result?.error?.target?.[0];
  return (
    <Form method="post">
      <Stack gap="sm">
        <NativeSelect
          name="target"
          label={t('catalog.category.move-to')}
          defaultValue={String(mine?.result?.initialValue?.target ?? current)}
          data={d.targets.map((x) => ({ value: x.value, label: x.path.map(name).join(' › ') }))}
          error={targetError ? error({ errors: [targetError], name: 'target' }) : undefined}
        />
        <input type="hidden" name="confirmed" value={ads} />
        {ads > 0 ? (
          <ConfirmAction
            label={t('catalog.category.move')}
            statement={
              asked ? impactWords(asked) : t('catalog.category.move-impact', { count: ads, n: number.format(ads) })
            }
            intent="move"
            open={!!asked}
          />
        ) : (
          <Group>
            <IntentSubmit named intent="move">
              {t('catalog.category.move')}
            </IntentSubmit>
          </Group>
        )}
      </Stack>
    </Form>
  );
}

function ActiveForm({ data: d, reply }: { data: TreeData; reply: Reply }) {
  const { t } = useT('admin');
  const { locale } = useLocale();
  const number = numberFormat(locale);
  const node = d.place.trail[d.place.trail.length - 1] as AdminCategory;
  const mine = reply?.result?.form === 'deactivate' ? reply : undefined;
  const ads = mine?.impact?.ads ?? d.hideAds;
  if (!node.active) {
    return (
      <Form method="post">
        <Text size="sm" mb="sm">
          {t('catalog.category.inactive-hint')}
        </Text>
        <IntentSubmit named intent="activate">
          {t('catalog.category.activate')}
        </IntentSubmit>
      </Form>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="confirmed" value={ads} />
      <Text size="sm" mb="sm">
        {t('catalog.category.deactivate-hint')}
      </Text>
      <ConfirmAction
        label={t('catalog.category.deactivate')}
        statement={
          ads > 0
            ? t('catalog.category.deactivate-impact', { count: ads, n: number.format(ads) })
            : t('catalog.category.deactivate-none')
        }
        intent="deactivate"
        open={!!mine?.impact}
      />
    </Form>
  );
}

function Tree({ data: d, reply }: { data: TreeData; reply: Reply }) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const node = d.place.trail[d.place.trail.length - 1] ?? null;
  const title = node ? name(node) : name(d.place.taxonomy);
  const other = node ?? d.place.taxonomy;
  return (
    <Stack gap="lg">
      <Crumbs place={d.place} />
      <Box>
        <Group gap="xs">
          {node ? <CategoryIcon name={node.icon} /> : null}
          <Title order={1}>{title}</Title>
          {(node ? node.active : d.place.taxonomy.active) ? null : (
            <Badge variant="light" color="gray" tt="none">
              {t('catalog.inactive')}
            </Badge>
          )}
        </Group>
        <Text c="dimmed" size="sm">
          {locale === 'ar' ? other.name_en : other.name_ar} ·{' '}
          <bdi dir="ltr">{node ? node.slug : d.place.taxonomy.slug}</bdi>
        </Text>
        <Group gap="md" mt="xs">
          {node && d.canEdit ? (
            <Anchor component={Link} to={to(adminPath(d.place.canonical, true))} py={10}>
              {t('catalog.categories.attributes')}
            </Anchor>
          ) : null}
          {!node && d.canTaxonomyAttributes ? (
            <Anchor component={Link} to={to(`/admin/taxonomies/${d.place.taxonomy.id}/attributes`)} py={10}>
              {t('catalog.categories.taxonomy-attributes')}
            </Anchor>
          ) : null}
        </Group>
      </Box>
      <FormError
        code={
          reply?.result?.form === 'order' || reply?.result?.form === 'up' || reply?.result?.form === 'down'
            ? reply.formError
            : undefined
        }
      />
      <AdminSection id="children-title" title={t('catalog.categories.children')}>
        {d.canEdit && d.children.length > 1 ? (
          <Text size="sm" c="dimmed" mb="sm">
            {t('catalog.categories.reorder-hint')}
          </Text>
        ) : null}
        <Children items={d.children} canEdit={d.canEdit} base={d.place.canonical} />
      </AdminSection>
      {d.canEdit ? (
        <AdminSection id="add-title" title={node ? t('catalog.categories.add-child') : t('catalog.categories.add-top')}>
          <CategoryForm intent="create" initial={null} reply={reply} submit={t('catalog.categories.create')} />
        </AdminSection>
      ) : null}
      {d.canEdit && node ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <AdminSection id="rename-title" title={t('catalog.category.rename')}>
            <CategoryForm intent="rename" initial={node} reply={reply} submit={t('catalog.category.save')} />
          </AdminSection>
          <Stack gap="lg">
            <AdminSection id="move-title" title={t('catalog.category.move-title')}>
              <MoveForm data={d} reply={reply} />
            </AdminSection>
            <AdminSection id="active-title" title={t('catalog.category.active-title')}>
              <ActiveForm data={d} reply={reply} />
            </AdminSection>
          </Stack>
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

export default function Categories({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const number = numberFormat(locale);
  const reply = actionData as Reply;
  if (loaderData.view === 'index') {
    return (
      <Stack gap="lg">
        <Box>
          <Title order={1}>{t('catalog.categories.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('catalog.categories.intro')}
          </Text>
        </Box>
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {loaderData.taxonomies.map((x) => (
            <Card key={x.id} component="li" withBorder radius="md" padding="sm">
              <Group justify="space-between">
                <Group gap="xs">
                  <CategoryIcon name={x.icon} size={22} />
                  <Anchor component={Link} to={to(adminPath([x.slug]))} fw={600} py={10}>
                    {name(x)}
                  </Anchor>
                  {x.active ? null : (
                    <Badge variant="light" color="gray" tt="none">
                      {t('catalog.inactive')}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {t('catalog.taxonomies.counts', {
                    categories: number.format(x.categories_count),
                    ads: number.format(x.ads_count),
                  })}
                </Text>
              </Group>
            </Card>
          ))}
        </Stack>
      </Stack>
    );
  }
  if (loaderData.view === 'attributes') {
    const node = loaderData.place.trail[loaderData.place.trail.length - 1] as AdminCategory;
    return (
      <Stack gap="lg">
        <Crumbs place={loaderData.place} attributes />
        <Box>
          <Title order={1}>{t('catalog.attribute.title', { name: name(node) })}</Title>
          <Text c="dimmed" size="sm">
            {t('catalog.attribute.category-intro')}
          </Text>
        </Box>
        <AttributeEditor attributes={loaderData.attributes} inherited={loaderData.inherited} reply={reply} />
      </Stack>
    );
  }
  return <Tree data={loaderData} reply={reply} />;
}
