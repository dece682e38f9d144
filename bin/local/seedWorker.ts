/**
 * The first start's dataset, off the server's thread (bin/local/earlyStart.ts starts it): reads the
 * prepared items from the cache, or generates and packs them, at once, while DynamoDB Local is still
 * starting, then writes them when told
 * where, reporting progress. The marker is the server's to write, once this says every item is in.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { writePreparedSeed, type PreparedSeed } from '#shared/data/seed';
import { preparedSeed } from './seedCache';

export type FromSeedWorker =
  | { type: 'prepared'; total: number }
  | { type: 'progress'; written: number; total: number }
  | { type: 'written'; marker: PreparedSeed['marker'] }
  | { type: 'failed'; message: string };
export interface ToSeedWorker {
  type: 'write';
  endpoint: string;
  tableName: string;
}

if (!parentPort) throw new Error('seedWorker.ts runs as a worker thread (bin/local/earlyStart.ts)');
const port = parentPort;
const post = (message: FromSeedWorker) => port.postMessage(message);
/**
 * This thread runs at a low priority: on a small machine the JVM's start and the server's module loading,
 * which the health check and the keys wait for, get the cores first, and the generation takes what
 * they leave. Linux names a thread by /proc/thread-self; elsewhere the thread keeps its priority.
 */
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
} catch {
  // Not Linux, or not allowed: only the start's order changes.
}
// Read from the cache `npm install` filled (bin/local/seedCache.ts), or generated and packed here and kept there.
const { prepared } = preparedSeed((workerData as { scale?: number }).scale);
post({ type: 'prepared', total: prepared.items.length });
port.once('message', async ({ endpoint, tableName }: ToSeedWorker) => {
  // This thread's environment is its own copy: the data layer reads where the table is from it.
  Object.assign(process.env, { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName });
  process.env.AWS_REGION ??= 'us-east-1';
  try {
    await writePreparedSeed(prepared, { onProgress: (written, total) => post({ type: 'progress', written, total }) });
    post({ type: 'written', marker: prepared.marker });
  } catch (err) {
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
  // The SDK's kept-alive sockets would hold the thread open.
  process.exit(0);
});
