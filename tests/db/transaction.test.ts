// withTransaction (server/db/transaction.ts) on both dialects: after-commit hooks run only after a
// commit, in order, each on its own; a nested call joins the outer transaction; jobs enqueued in it
// exist only once it commits, and wake this process's worker then.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../server/db/index.ts';
import { afterCommitOf, withTransaction } from '../../server/db/transaction.ts';
import { createWorker, enqueueJob } from '../../server/jobs/queue.ts';
import { createLogger } from '../../server/logger.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const silent = createLogger('silent');

/** A logger that keeps the messages of its error calls. */
function recordingLogger() {
  const errors: string[] = [];
  const logger = createLogger('silent');
  logger.error = ((obj: unknown, msg?: string) =>
    void errors.push(`${msg}: ${(obj as { err?: Error }).err?.message}`)) as typeof logger.error;
  return { logger, errors };
}

describe.each(dialects)('withTransaction on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());
  beforeEach(async () => {
    await t.db.deleteFrom('rate_limits').execute();
    await t.db.deleteFrom('jobs').execute();
  });

  const write = (db: DB, key: string) => db.insertInto('rate_limits').values({ key, hits: 1, reset_at: 1 }).execute();
  const keys = async () =>
    (await t.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map((r) => r.key);

  it('runs the hooks after the commit, in the order registered, and returns the result', async () => {
    const seen: string[] = [];
    const result = await withTransaction(t.db, async (tx, { afterCommit }) => {
      await write(tx, 'a');
      afterCommit(async () => {
        // The change is visible from outside the transaction: it committed.
        seen.push(`first:${(await keys()).join(',')}`);
      });
      afterCommit(() => void seen.push('second'));
      await write(tx, 'b');
      seen.push('body done');
      return 42;
    });
    expect(result).toBe(42);
    expect(seen).toEqual(['body done', 'first:a,b', 'second']);
  });

  it('runs no hook when the transaction rolls back, and rethrows', async () => {
    const seen: string[] = [];
    await expect(
      withTransaction(t.db, async (tx, { afterCommit }) => {
        await write(tx, 'gone');
        afterCommit(() => void seen.push('hook'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(seen).toEqual([]);
    expect(await keys()).toEqual([]);
  });

  it('joins the outer transaction when called with its tx: one rollback, hooks after the outer commit', async () => {
    const seen: string[] = [];
    // A domain function as they are written: takes a DB, opens "its" transaction.
    const domainWrite = (db: DB, key: string) =>
      withTransaction(db, async (tx, { afterCommit }) => {
        await write(tx, key);
        afterCommit(() => void seen.push(`inner:${key}`));
        return key;
      });

    await withTransaction(t.db, async (tx, { afterCommit }) => {
      afterCommit(() => void seen.push('outer'));
      expect(await domainWrite(tx, 'x')).toBe('x');
      // Registered on the outer transaction: nothing has run yet.
      expect(seen).toEqual([]);
      await domainWrite(tx, 'y');
    });
    expect(seen).toEqual(['outer', 'inner:x', 'inner:y']);
    expect(await keys()).toEqual(['x', 'y']);

    seen.length = 0;
    await expect(
      withTransaction(t.db, async (tx) => {
        await domainWrite(tx, 'z');
        throw new Error('outer failed after the inner write');
      }),
    ).rejects.toThrow('outer failed');
    expect(seen).toEqual([]);
    expect(await keys()).toEqual(['x', 'y']);
  });

  it('isolates a failing hook: logged, the others run, the caller gets its result', async () => {
    const { logger, errors } = recordingLogger();
    const seen: string[] = [];
    const result = await withTransaction(
      t.db,
      async (tx, { afterCommit }) => {
        await write(tx, 'kept');
        afterCommit(() => {
          throw new Error('cache gone');
        });
        afterCommit(async () => {
          throw new Error('storage down');
        });
        afterCommit(() => void seen.push('third'));
        return 'ok';
      },
      { logger },
    );
    expect(result).toBe('ok');
    expect(seen).toEqual(['third']);
    expect(errors).toEqual(['after-commit hook failed: cache gone', 'after-commit hook failed: storage down']);
    expect(await keys()).toEqual(['kept']);
  });

  it('refuses to join a transaction it did not open, and hooks registered too late', async () => {
    await expect(t.db.transaction().execute((trx) => withTransaction(trx, async () => 1))).rejects.toThrow(
      /not opened by withTransaction/,
    );
    let late: ((fn: () => unknown) => void) | undefined;
    await withTransaction(t.db, async (_tx, { afterCommit }) => {
      late = afterCommit;
    });
    expect(() => late?.(() => {})).toThrow(/after the transaction ended/);
  });

  it('afterCommitOf: on the hooks inside a transaction, at once outside one', async () => {
    const seen: string[] = [];
    await withTransaction(t.db, async (tx) => {
      await afterCommitOf(tx, () => void seen.push('after commit'));
      seen.push('body');
    });
    await afterCommitOf(t.db, () => void seen.push('now'));
    expect(seen).toEqual(['body', 'after commit', 'now']);
  });

  it('keeps a job enqueued in the transaction only if it commits, and wakes the worker after the commit', async () => {
    const ran: string[] = [];
    // Polling once a minute: only the wake-up can run the job within the test.
    const worker = createWorker({
      db: t.db,
      dialect,
      logger: silent,
      handlers: { hello: async (p) => void ran.push((p as { who: string }).who) },
      pollMs: 60_000,
    });
    worker.start();
    try {
      await new Promise((r) => setTimeout(r, 50)); // the worker's first look finds nothing
      await expect(
        withTransaction(t.db, async (tx) => {
          await enqueueJob(tx, 'hello', { who: 'never' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await withTransaction(t.db, async (tx) => {
        await enqueueJob(tx, 'hello', { who: 'Amal' });
        await new Promise((r) => setTimeout(r, 100));
        // Not committed yet: the worker has not seen it.
        expect(ran).toEqual([]);
      });
      const deadline = Date.now() + 3000;
      while (ran.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(ran).toEqual(['Amal']);
      expect((await t.db.selectFrom('jobs').select('name').execute()).map((j) => j.name)).toEqual(['hello']);
    } finally {
      await worker.stop();
    }
  });
});
