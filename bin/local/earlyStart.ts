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
import type { FromSeedWorker, ToSeedWorker } from './seedWorker';

export interface PreparingSeed {
  /** Writes the prepared items to this table, reporting progress; resolves with the marker to write last. */
  write(
    endpoint: string,
    tableName: string,
    onProgress: (written: number, total: number) => void,
  ): Promise<Extract<FromSeedWorker, { type: 'written' }>['marker']>;
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
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  // An error before `write` is called must not go unheard (an 'error' with no listener ends the process).
  let failure: Error | undefined;
  worker.on('error', (err) => (failure = err));
  let total = 0;
  worker.on('message', (m: FromSeedWorker) => {
    if (m.type !== 'prepared') return;
    total = m.total;
    startPhase(`dataset generated and packed (worker, ${m.total} items)`);
  });
  return {
    write(endpoint, tableName, onProgress) {
      return new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        if (total) onProgress(0, total);
        worker.on('message', (m: FromSeedWorker) => {
          if (m.type === 'progress') onProgress(m.written, m.total);
          else if (m.type === 'written') resolve(m.marker);
          else if (m.type === 'failed') reject(new Error(m.message));
        });
        worker.once('error', reject);
        void exited.then((code) => reject(new Error(`The dataset worker exited (${code}) before it was done`)));
        worker.postMessage({ type: 'write', endpoint, tableName } satisfies ToSeedWorker);
      });
    },
    cancel: () => void worker.terminate(),
  };
}
