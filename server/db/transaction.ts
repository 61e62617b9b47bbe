// The one way to write several rows (docs/decisions/0010-writes-and-side-effects.md):
//
//   await withTransaction(db, async (tx, { afterCommit }) => {
//     await tx.insertInto('ads')…;                            // the change
//     await enqueue(tx, 'recount-taxonomy', { taxonomyId });  // jobs: rows of the same transaction
//     afterCommit(() => adChanged(change));                   // in-process side effects, once committed
//   });
//
// `afterCommit` callbacks run after the commit succeeded, never after a rollback, in the order
// they were registered, each on its own: one that throws (or rejects) is logged and neither stops
// the others nor fails the caller, whose change is already committed.
//
// Nesting: a domain function takes `db: DB` and calls `withTransaction(db, …)`. Given the `tx` of a
// running withTransaction (a `Tx` is a `DB`: Kysely's Transaction extends Kysely), it joins that
// transaction (no savepoint: a throw rolls back the whole outer transaction) and registers its
// hooks on the outer one, which runs them after the outermost commit. Given a Kysely transaction
// opened some other way it refuses: its commit could not be followed.
//
// Dialect notes: PostgreSQL takes a pooled connection per transaction. SQLite (node:sqlite,
// server/db/sqlite.ts) has one connection behind Kysely's mutex: inside the callback every query
// must go through `tx` — a query on the outer `db` waits for the transaction to end and never
// returns. Hooks run after the connection is released, so they may use the outer `db`; better,
// read what they need inside the transaction and let them only announce it.
import type { Transaction } from 'kysely';
import { createLogger, type Logger } from '../logger.ts';
import type { DB } from './index.ts';
import type { Database } from './schema.ts';

export type AfterCommit = (fn: () => unknown) => void;

export interface TxHooks {
  afterCommit: AfterCommit;
}

const HOOKS = Symbol('souq.tx-hooks');

/** A transaction opened by withTransaction: a DB for queries, carrying its after-commit hooks. */
export type Tx = Transaction<Database> & { readonly [HOOKS]: TxHooks };

/** The hooks of a running withTransaction, or undefined for anything else. */
export function txHooks(db: DB): TxHooks | undefined {
  return (db as unknown as Partial<Tx>)[HOOKS];
}

let hookLogger: Logger | undefined;
/** Where failing hooks are reported: the process's logger (set at start-up), else one of LOG_LEVEL. */
export function setAfterCommitLogger(logger: Logger): void {
  hookLogger = logger;
}
const defaultLogger = () => (hookLogger ??= createLogger(process.env.LOG_LEVEL ?? 'info'));

async function runHooks(hooks: (() => unknown)[], logger: Logger) {
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      logger.error({ err }, 'after-commit hook failed');
    }
  }
}

/**
 * Runs `fn` in one transaction (or joins the caller's, see above) and returns its result once
 * committed and the hooks have run. Throws what `fn` throws, after the rollback.
 */
export async function withTransaction<T>(
  db: DB,
  fn: (tx: Tx, hooks: TxHooks) => Promise<T>,
  opts: { logger?: Logger } = {},
): Promise<T> {
  const joined = txHooks(db);
  if (joined) return fn(db as Tx, joined);
  if (db.isTransaction) {
    throw new Error('withTransaction: a transaction not opened by withTransaction cannot be joined');
  }
  const hooks: (() => unknown)[] = [];
  let open = true;
  const own: TxHooks = {
    afterCommit: (hook) => {
      // A hook registered after the end would never run: say so where the mistake is.
      if (!open) throw new Error('afterCommit called after the transaction ended');
      hooks.push(hook);
    },
  };
  let result: T;
  try {
    result = await db.transaction().execute(async (trx) => {
      Object.defineProperty(trx, HOOKS, { value: own });
      return fn(trx as Tx, own);
    });
  } finally {
    open = false;
  }
  await runHooks(hooks, opts.logger ?? defaultLogger());
  return result;
}

/**
 * Runs `fn` once what was written through `db` is committed: registered on the hooks of a running
 * withTransaction, or at once (isolated like a hook) for a plain `db`, whose writes commit as they
 * run. For helpers that may be called either way, e.g. an announcement after a write.
 */
export async function afterCommitOf(db: DB, fn: () => unknown, opts: { logger?: Logger } = {}): Promise<void> {
  const hooks = txHooks(db);
  if (hooks) return hooks.afterCommit(fn);
  if (db.isTransaction) throw new Error('afterCommitOf: a transaction not opened by withTransaction');
  await runHooks([fn], opts.logger ?? defaultLogger());
}
