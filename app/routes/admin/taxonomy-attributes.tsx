import { Anchor, Box, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { AttributeEditor, type AttributeReply } from '~/components/admin/attribute-editor.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, pathId, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { getAdminTaxonomy, listOwnAttributes } from '../../../server/domain/admin/catalogue.ts';
import type { Route } from './+types/taxonomy-attributes';
import { attributeAction } from './catalogue.server.ts';

// A taxonomy's own attributes (docs/product/back-office.md, "Catalogue"): every ad of the taxonomy
// carries them. Reading and changing them both need `update-taxonomies`.

export const middleware = guards('acl:update-taxonomies');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'update-taxonomies');
  const database = db(context);
  const taxonomy = await getAdminTaxonomy(database, pathId(request, params.id));
  const attributes = await listOwnAttributes(database, { kind: 'taxonomy', id: taxonomy.id });
  const t = tFor(request);
  const named = localeOf(request) === 'ar' ? taxonomy.name_ar : taxonomy.name_en;
  return {
    meta: { title: `${t('admin:catalog.attribute.title', { name: named })}`, noindex: true },
    taxonomy,
    attributes,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathId(request, params.id);
  const form = await request.formData();
  const back = localizePath(`/admin/taxonomies/${id}/attributes`, localeOf(request));
  return attributeAction(request, context, form, 'update-taxonomies', { kind: 'taxonomy', id }, back);
}

export const meta: Route.MetaFunction = routeMeta;

export default function TaxonomyAttributes({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name } = useLocale();
  const { taxonomy, attributes } = loaderData;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/taxonomies')} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('catalog.taxonomies.back')}
        </Group>
      </Anchor>
      <Box>
        <Title order={1}>{t('catalog.attribute.title', { name: name(taxonomy) })}</Title>
        <Text c="dimmed" size="sm">
          {t('catalog.attribute.taxonomy-intro')}
        </Text>
      </Box>
      <AttributeEditor attributes={attributes} inherited={null} reply={actionData as AttributeReply | undefined} />
    </Stack>
  );
}
