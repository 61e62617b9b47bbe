// Mail is a `send-mail` job (server/mail/outbox.ts): data-layer tests that read mails run a job
// worker on their test database, as the web process does, handing the mails to their own mailer.
// Woken by every enqueue of this process, it delivers as soon as the enqueuing transaction commits.
import type { DatabaseHandle } from '../../server/db/index.ts';
import { jobHandlers } from '../../server/jobs/app-jobs.ts';
import { createWorker } from '../../server/jobs/queue.ts';
import { createLogger } from '../../server/logger.ts';
import type { MailMessage } from '../../server/mail/index.ts';

/** The secret the test worker signs its mails' unsubscribe links with. */
export const TEST_MAIL_SECRET = 'test-secret-for-unsubscribe-links-0123456789';

export function startMailWorker(
  database: DatabaseHandle,
  send: (message: MailMessage) => void | Promise<void>,
): { stop(): Promise<void> } {
  const worker = createWorker({
    db: database.db,
    dialect: database.dialect,
    logger: createLogger('silent'),
    handlers: jobHandlers({
      mailer: { send: async (m) => void (await send(m)) },
      links: { origin: 'http://souq.test', secret: TEST_MAIL_SECRET },
    }),
    pollMs: 50,
  });
  worker.start();
  return { stop: () => worker.stop() };
}
