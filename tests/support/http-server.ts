// Starts the built server (npm run build first) for the HTTP suite; the URL reaches the tests
// through `inject('baseUrl')`.
import type { TestProject } from 'vitest/node';
import { startBuiltServer } from '../../scripts/lib/built-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startBuiltServer({ SEED_DEMO: 'true' });
  project.provide('baseUrl', server.url);
  return async () => {
    await server.stop();
  };
}
