import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { mantineStyles } from './scripts/lib/mantine-styles.ts';

export default defineConfig({
  resolve: {
    alias: { '~': path.resolve(import.meta.dirname, 'app') },
  },
  build: { target: 'es2022' },
  environments: {
    // The Express shell is the server build's entry (ADR 0002: bundled into the server build).
    ssr: { build: { rollupOptions: { input: './server/http.ts' } } },
  },
  // Mantine's per-component stylesheets (app/styles/mantine.ts) as its whole stylesheet writes them.
  plugins: [mantineStyles(), reactRouter()],
});
