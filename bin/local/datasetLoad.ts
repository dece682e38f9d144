import { seedCuratedDataset } from '#shared/data/seed';
import { getSeedMarker } from '#shared/store/curatedRepo';
import { DatasetLoadingError } from '#shared/http/errors';

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

  constructor(scale?: number) {
    this.loaded = this.load(scale);
  }

  /** The error to answer while loading, or undefined once the dataset is complete. */
  unavailable(): DatasetLoadingError | undefined {
    if (this.done) return undefined;
    return new DatasetLoadingError({ loaded_items: this.written, total_items: this.total }, RETRY_AFTER_SECONDS);
  }

  private async load(scale?: number): Promise<void> {
    if (await getSeedMarker()) {
      this.done = true;
      return;
    }
    process.stderr.write(
      'First start: loading the curated Web3 dataset in the background (curated endpoints answer 503 until it is done)...\n',
    );
    let reported = Date.now();
    const outcome = await seedCuratedDataset({
      scale,
      onProgress: (written, total) => {
        [this.written, this.total] = [written, total];
        if (Date.now() - reported < PROGRESS_EVERY_MS) return;
        reported = Date.now();
        process.stderr.write(`  ${written} of ${total} items (${Math.floor((100 * written) / total)}%)\n`);
      },
    });
    this.done = true;
    process.stderr.write(
      `Curated dataset loaded: ${outcome.marker.items} items in ${(outcome.ms / 1000).toFixed(1)} s.\n`,
    );
  }
}
