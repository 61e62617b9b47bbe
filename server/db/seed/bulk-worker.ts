// Plans bulk ads in a worker thread (seedBulkAds in ./ads.ts): the thread that writes only writes.
// Sends the batches in order, never more than `ahead` beyond those the writer has taken.
import { parentPort, workerData } from 'node:worker_threads';
import { type BulkPlan, planBatch } from './ads.ts';

const { plan, count, chunk, ahead } = workerData as { plan: BulkPlan; count: number; chunk: number; ahead: number };
const port = parentPort;
if (!port) throw new Error('bulk-worker.ts runs as a worker thread');
let credit = ahead;
let wake: (() => void) | null = null;
port.on('message', () => {
  credit++;
  wake?.();
});
for (let from = 0; from < count; from += chunk) {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  port.postMessage(planBatch(plan, from, Math.min(count, from + chunk)));
}
port.close();
