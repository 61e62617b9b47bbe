// The native fan-out writer for the realtime tests: compiled from server/realtime/native/ into the
// temporary folder once per version of its source (scripts/build-native.ts), then loaded once a
// process.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildFanoutWriter } from '../../../scripts/build-native.ts';
import { type FanoutWriter, loadFanoutWriter } from '../../../server/realtime/fanout-writer.ts';

const SOURCE = path.resolve(import.meta.dirname, '../../../server/realtime/native/fanout-writer.c');

let loaded: FanoutWriter | undefined;

/** The writer, built if needed and loaded on the first call; the same one after. */
export function testFanoutWriter(): FanoutWriter {
  if (loaded) return loaded;
  const hash = createHash('sha256').update(readFileSync(SOURCE)).digest('hex').slice(0, 12);
  const file = path.join(tmpdir(), `souq-fanout-writer-${hash}.node`);
  if (!existsSync(file)) {
    const failure = buildFanoutWriter(file);
    if (failure) throw new Error(`the native fan-out writer did not build: ${failure}`);
  }
  const { writer, problem } = loadFanoutWriter(file);
  if (!writer) throw new Error(`the native fan-out writer at ${file} did not load: ${problem}`);
  loaded = writer;
  return writer;
}
