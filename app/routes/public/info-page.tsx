import { Stack, Title, Typography } from '@mantine/core';
import { data } from 'react-router';
import { stripLocale } from '~/i18n/config.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { localeOf } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { getInfoPage } from '../../../server/domain/pages.ts';
import type { Route } from './+types/info-page';

export async function loader({ request, context }: Route.LoaderArgs) {
  const slug = stripLocale(new URL(request.url).pathname).replace(/^\/|\/$/g, '');
  const page = getInfoPage(localeOf(request), slug);
  // Content ships with the build: the shared copy only ages out.
  const signedIn = !!(await currentUser(request, context));
  return data(
    { page, meta: { title: page.title, description: page.description } },
    { headers: pageCacheHeaders(signedIn, [`page:${slug}`]) },
  );
}

export const headers = pageHeaders;

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
