/**
 * The first start's dataset, off the server's thread (bin/local/earlyStart.ts starts it): reads the
 * prepared items from the cache `npm install` filled, or generates and packs them (and keeps them
 * there), at once, while DynamoDB Local is still starting, then hands them to the server's thread,
 * which writes them once the keys are printed (at its own priority: this thread's is the lowest).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { PreparedSeed } from '#bin/curated/seed';
import { preparedSeed } from './seedCache';

export type FromSeedWorker =
  | { type: 'prepared'; prepared: PreparedSeed; generated: boolean }
  | { type: 'failed'; message: string };

if (!parentPort) throw new Error('seedWorker.ts runs as a worker thread (bin/local/earlyStart.ts)');
const port = parentPort;
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
try {
  const { prepared, generated } = preparedSeed((workerData as { scale?: number }).scale);
  port.postMessage({ type: 'prepared', prepared, generated } satisfies FromSeedWorker);
} catch (err) {
  port.postMessage({
    type: 'failed',
    message: err instanceof Error ? err.message : String(err),
  } satisfies FromSeedWorker);
}
