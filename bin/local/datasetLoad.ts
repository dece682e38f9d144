import { markSeeded, seedCuratedDataset } from '#shared/data/seed';
import { getSeedMarker } from '#shared/store/curatedRepo';
import { DatasetLoadingError } from '#shared/http/errors';
import { startPhase } from './startTimings';
import type { PreparingSeed } from './earlyStart';

const RETRY_AFTER_SECONDS = 5;
const PROGRESS_EVERY_MS = 5_000;

/**
 * The curated dataset on the local server's first start. It loads in the background so the server
 * answers (health, account, keys, chats, moderation) at once; until it is complete, endpoints that
 * read it answer 503 dataset_loading with Retry-After and how far the load has got.
 */
export class DatasetLoad {
  private written = 0;
  private total = 0;
  private done = false;
  /** Settles when the dataset is complete (at once when an earlier start loaded it). */
  readonly loaded: Promise<void>;

  /** `prepared`: the dataset a worker began generating at the start of the process, to write to `table`. */
  constructor(scale?: number, prepared?: { seed: PreparingSeed; endpoint: string; tableName: string }) {
    this.loaded = this.load(scale, prepared);
  }

  /** The error to answer while loading, or undefined once the dataset is complete. */
  unavailable(): DatasetLoadingError | undefined {
    if (this.done) return undefined;
    return new DatasetLoadingError({ loaded_items: this.written, total_items: this.total }, RETRY_AFTER_SECONDS);
  }

  private async load(
    scale?: number,
    prepared?: { seed: PreparingSeed; endpoint: string; tableName: string },
  ): Promise<void> {
    if (await getSeedMarker()) {
      prepared?.seed.cancel();
      this.done = true;
      return;
    }
    process.stderr.write(
      'First start: loading the curated Web3 dataset in the background (curated endpoints answer 503 until it is done)...\n',
    );
    const started = Date.now();
    let reported = Date.now();
    const onProgress = (written: number, total: number) => {
      [this.written, this.total] = [written, total];
      if (Date.now() - reported < PROGRESS_EVERY_MS) return;
      reported = Date.now();
      process.stderr.write(`  ${written} of ${total} items (${Math.floor((100 * written) / total)}%)\n`);
    };
    const marker = prepared
      ? await markSeeded(await prepared.seed.write(prepared.endpoint, prepared.tableName, onProgress))
      : (await seedCuratedDataset({ scale, onPhase: startPhase, onProgress })).marker;
    startPhase('dataset written');
    this.done = true;
    process.stderr.write(
      `Curated dataset loaded: ${marker.items} items in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
    );
  }
}
