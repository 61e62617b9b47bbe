// Serves the local media storage (`<dataDir>/uploads`) at /uploads. Only keys the storage itself
// could have written are served (`.webp`, no dot files, no traversal), always as image/webp and never
// sniffed. Keys are random and never reused, so files are cached for a year.
import path from 'node:path';
import express, { type Router } from 'express';
import type { Config } from '../config.ts';
import { isStorageKey } from '../media/storage.ts';

export function uploadsRouter(config: Pick<Config, 'dataDir'>): Router {
  const root = path.resolve(config.dataDir, 'uploads');
  const router = express.Router();
  router.get('/{*key}', (req, res, next) => {
    let key: string;
    try {
      key = decodeURIComponent(req.path.slice(1));
    } catch {
      return notFound(res);
    }
    if (!isStorageKey(key)) return notFound(res);
    res.sendFile(
      key,
      {
        root,
        dotfiles: 'deny',
        acceptRanges: false,
        immutable: true,
        maxAge: '1y',
        headers: { 'Content-Type': 'image/webp', 'X-Content-Type-Options': 'nosniff' },
      },
      (err?: Error & { status?: number; statusCode?: number }) => {
        if (!err) return;
        if (res.headersSent) return next(err);
        if (err.status === 404 || err.statusCode === 404 || (err as { code?: string }).code === 'ENOENT') {
          return notFound(res);
        }
        next(err);
      },
    );
  });
  return router;
}

function notFound(res: express.Response) {
  res.status(404).setHeader('Cache-Control', 'no-store');
  res.type('text/plain').send('Not Found');
}
