import { markSeeded, seedCuratedDataset, writePreparedSeed } from '#bin/curated/seed';
import { getSeedMarker } from '#shared/store/curatedReads';
import { DatasetLoadingError } from '#shared/http/errors';
import { startPhase } from './startTimings';
import type { PreparingSeed } from './earlyStart';
import type { PreparedSeed } from '#bin/curated/seed';

const RETRY_AFTER_SECONDS = 5;
const PROGRESS_EVERY_MS = 5_000;

/**
 * The curated dataset on the local server's first start. It loads in the background so the server
 * answers (health, account, keys, chats, moderation) at once; until it is complete, endpoints that
 * read it answer 503 dataset_loading with Retry-After and how far the load has got.
 */
export class DatasetLoad {
  private written = 0;
  /** Unknown until the items are prepared (null in the answer: 0 would say there is nothing to load). */
  private total: number | null = null;
  private done = false;
  /** Settles when the dataset is complete (at once when an earlier start loaded it). */
  readonly loaded: Promise<void>;

  /** `prepared`: the dataset a worker began preparing at the start of the process, to write to the server's table. */
  constructor(scale?: number, prepared?: PreparingSeed) {
    this.loaded = this.load(scale, prepared);
  }

  /** The error to answer while loading, or undefined once the dataset is complete. */
  unavailable(): DatasetLoadingError | undefined {
    if (this.done) return undefined;
    return new DatasetLoadingError({ loaded_items: this.written, total_items: this.total }, RETRY_AFTER_SECONDS);
  }

  private async load(scale?: number, prepared?: PreparingSeed): Promise<void> {
    if (await getSeedMarker()) {
      prepared?.cancel();
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
      ? await this.write(await prepared.prepared, onProgress)
      : await this.seed(scale, onProgress);
    startPhase('dataset written');
    this.done = true;
    process.stderr.write(
      `Curated dataset loaded: ${marker.items} items in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
    );
  }

  private async write(prepared: PreparedSeed, onProgress: (written: number, total: number) => void) {
    onProgress(0, prepared.items.length);
    await writePreparedSeed(prepared, { onProgress });
    return markSeeded(prepared.marker);
  }

  private async seed(scale: number | undefined, onProgress: (written: number, total: number) => void) {
    return (await seedCuratedDataset({ scale, onPhase: startPhase, onProgress })).marker;
  }
}
