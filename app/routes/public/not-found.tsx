import { notFound } from '~/lib/route.server.ts';
import type { Route } from './+types/not-found';

/** Every path no other route matches: 404 `Page not found: {path}`, rendered by the layout's error boundary. */
export async function loader({ request }: Route.LoaderArgs) {
  throw notFound(request);
}

export async function action({ request }: Route.ActionArgs) {
  throw notFound(request);
}

export default function NotFound() {
  return null;
}
