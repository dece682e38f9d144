/**
 * What a start can begin before the server's modules are loaded: DynamoDB Local (a JVM taking seconds
 * to answer) and, on a data folder with nothing in it yet, the curated dataset's generation in a
 * worker thread. Both run while the main thread loads and transforms the rest of the server, so a
 * first start's seconds overlap instead of adding up. Imports only what starting them needs.
 */
import { existsSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { startDynamo, type LocalDynamo } from './dynamo';
import { startPhase } from './startTimings';
import type { FromSeedWorker } from './seedWorker';
import type { PreparedSeed } from '#bin/curated/seed';

export interface PreparingSeed {
  /** The dataset's items, ready to write (the marker is written once they are in). */
  prepared: Promise<PreparedSeed>;
  /** Not needed after all (the table already holds the dataset). */
  cancel(): void;
}

export interface EarlyStart {
  dynamo: Promise<LocalDynamo>;
  seed: PreparingSeed | undefined;
}

export function beginStart(options: { dataDir: string; fresh: boolean }): EarlyStart {
  if (options.fresh) rmSync(options.dataDir, { recursive: true, force: true });
  const empty = !existsSync(options.dataDir);
  const dynamo = startDynamo({ dataDir: options.dataDir });
  void dynamo.then(
    () => startPhase('DynamoDB Local answering'),
    () => undefined,
  );
  return { dynamo, seed: empty ? prepareSeedInWorker() : undefined };
}

/**
 * The worker runs TypeScript like this process does: tsx is registered in it first (a worker does not
 * inherit the loader's hooks).
 */
export function prepareSeedInWorker(scale?: number): PreparingSeed {
  const entry = new URL('./seedWorker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: { scale } },
  );
  const prepared = new Promise<PreparedSeed>((resolve, reject) => {
    worker.on('message', (m: FromSeedWorker) => {
      if (m.type === 'failed') return reject(new Error(m.message));
      startPhase(
        `dataset ${m.generated ? 'generated and packed' : 'read from the cache'} (worker, ${m.prepared.items.length} items)`,
      );
      resolve(m.prepared);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The dataset worker exited (${code}) before it was done`)));
  });
  // Rejections are heard by whoever awaits `prepared`; one nobody awaits (a cancelled start) must not end the process.
  prepared.catch(() => undefined);
  return { prepared, cancel: () => void worker.terminate() };
}
