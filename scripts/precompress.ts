// The last step of `npm run build`: brotli (best quality) and gzip forms of the client build's
// text files, written beside them (server/http/static-files.ts serves them; ADR 0011).
import path from 'node:path';
import { precompressDirectory } from '../server/http/static-files.ts';

const dir = path.resolve(import.meta.dirname, '..', process.argv[2] ?? 'build/client');
const started = performance.now();
const report = await precompressDirectory(dir);
const kb = (n: number) => `${Math.round(n / 1024)} KB`;
console.log(
  `precompressed ${report.files} files of ${path.relative(process.cwd(), dir) || '.'} (${kb(report.bytes)}): ` +
    `brotli ${kb(report.br)}, gzip ${kb(report.gzip)}, in ${Math.round(performance.now() - started)} ms`,
);
