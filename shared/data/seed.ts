import { DEFAULT_SEED, generateDataset } from './generator';
import type { CuratedEntity } from './model';
import { now } from '#shared/adapters/ports';
import {
  CURATED_LAYOUT,
  getSeedMarker,
  putSeedMarker,
  writeCuratedEntities,
  type SeedMarker,
} from '#shared/store/curatedRepo';

export interface SeedOptions {
  seed?: number;
  /** 1 = the full dataset; the test suite seeds a smaller one. */
  scale?: number;
  /** Write even when the marker says the dataset is loaded (the admin `seed` command). */
  force?: boolean;
  concurrency?: number;
  /** Size of the items facet copies are packed into (tests make it small to get many packs). */
  packBytes?: number;
  /** Called as batches land: items written so far and the total. */
  onProgress?: (written: number, total: number) => void;
}

export interface SeedOutcome {
  skipped: boolean;
  marker: SeedMarker;
  ms: number;
}

/**
 * Loads the generated dataset. The marker item is written last, so its presence means every item is
 * in place: an interrupted seed is simply run again (writes are idempotent overwrites).
 */
export async function seedCuratedDataset(options: SeedOptions = {}): Promise<SeedOutcome> {
  const started = Date.now();
  const existing = await getSeedMarker();
  if (existing && !options.force) return { skipped: true, marker: existing, ms: Date.now() - started };
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? 1;
  const data = generateDataset({ seed, scale });
  const entities: CuratedEntity[] = [...data.funds, ...data.companies, ...data.people, ...data.kols, ...data.builders];
  const items = await writeCuratedEntities(entities, {
    concurrency: options.concurrency,
    packBytes: options.packBytes,
    onProgress: options.onProgress,
  });
  const marker: SeedMarker = {
    layout: CURATED_LAYOUT,
    seed,
    scale,
    counts: {
      funds: data.funds.length,
      companies: data.companies.length,
      rounds: data.rounds.length,
      people: data.people.length,
      kols: data.kols.length,
      builders: data.builders.length,
    },
    items,
    seededAt: now().toISOString(),
  };
  await putSeedMarker(marker);
  return { skipped: false, marker, ms: Date.now() - started };
}
