// The one migration set, in order. Each module exports `name` and `up(db, dialect)`.

import * as m0001 from './0001_foundation.ts';
import type { Migration } from './helpers.ts';

export const migrations: Migration[] = [m0001];
