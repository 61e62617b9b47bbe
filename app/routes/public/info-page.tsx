import { Stack, Title, Typography } from '@mantine/core';
import { stripLocale } from '~/i18n/config.ts';
import { routeMeta } from '~/lib/meta.ts';
import { localeOf, orNotFound } from '~/lib/route.server.ts';
import { getInfoPage } from '../../../server/domain/pages.ts';
import type { Route } from './+types/info-page';

export async function loader({ request }: Route.LoaderArgs) {
  const slug = stripLocale(new URL(request.url).pathname).replace(/^\/|\/$/g, '');
  const page = await orNotFound(
    request,
    Promise.resolve().then(() => getInfoPage(localeOf(request), slug)),
  );
  return { page, meta: { title: page.title, description: page.description } };
}

export const meta: Route.MetaFunction = routeMeta;

export default function InfoPageRoute({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <Stack gap="md" maw={760} mx="auto">
      <Title order={1}>{page.title}</Title>
      <Typography>
        {/* Our own Markdown from the repository, rendered on the server. */}
        <div dangerouslySetInnerHTML={{ __html: page.html }} />
      </Typography>
    </Stack>
  );
}
