import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '~': path.resolve(import.meta.dirname, 'app') };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        resolve: { alias },
        test: {
          name: 'db',
          include: ['tests/db/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // The realtime server, black-box: real sockets, pusher-js and the pusher SDK, Redis when
          // TEST_REDIS_URL is set (tests/realtime/).
          name: 'realtime',
          include: ['tests/realtime/**/*.test.ts'],
          environment: 'node',
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'http',
          include: ['tests/http/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/http-server.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
