import { DEFAULT_SEED, generateDataset } from './generator';
import type { CuratedEntity } from '#shared/domain/curated/model';
import { now } from '#shared/adapters/ports';
import { CURATED_LAYOUT, type CuratedItem, type SeedMarker } from '#shared/store/curatedItems';
import { forgetCachedFacets, getSeedMarker } from '#shared/store/curatedReads';
import { curatedItemsFor, packedCuratedItems } from '#shared/domain/curated/copies';
import { putCuratedItems, putSeedMarker, writePackedCuratedItems } from '#shared/store/curatedWrites';

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
  /** Called as each step ends (generated, packed, written), for the first start's timings. */
  onPhase?: (label: string) => void;
}

export interface SeedOutcome {
  skipped: boolean;
  marker: SeedMarker;
  ms: number;
}

/** A dataset generated and packed into items, not yet written (the local first start prepares it early). */
export interface PreparedSeed {
  items: CuratedItem[];
  marker: Omit<SeedMarker, 'seededAt'>;
}

/** Generates the dataset and packs it into the items the table stores: CPU only, no request. */
export function prepareSeed(options: Pick<SeedOptions, 'seed' | 'scale' | 'packBytes' | 'onPhase'> = {}): PreparedSeed {
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? 1;
  const data = generateDataset({ seed, scale });
  options.onPhase?.('dataset generated');
  const entities: CuratedEntity[] = [...data.funds, ...data.companies, ...data.people, ...data.kols, ...data.builders];
  const items = packedCuratedItems(entities, options.packBytes);
  options.onPhase?.('items packed');
  const counts = {
    funds: data.funds.length,
    companies: data.companies.length,
    rounds: data.rounds.length,
    people: data.people.length,
    kols: data.kols.length,
    builders: data.builders.length,
  };
  return { items, marker: { layout: CURATED_LAYOUT, seed, scale, counts, items: items.length } };
}

/** Writes a prepared dataset's items; the marker is left to `markSeeded`, written last. */
export async function writePreparedSeed(
  prepared: PreparedSeed,
  options: Pick<SeedOptions, 'concurrency' | 'onProgress'> = {},
): Promise<void> {
  const { carried } = await writePackedCuratedItems(prepared.items, {
    concurrency: options.concurrency,
    onProgress: (written) => options.onProgress?.(written, prepared.items.length),
  });
  // Profiles imported under an earlier layout of shards: their copies under this layout's facets and lookups.
  if (carried.length) await putCuratedItems(carried.flatMap(curatedItemsFor));
}

/** The marker, written once every item is in place: its presence means the dataset is complete. */
export async function markSeeded(marker: PreparedSeed['marker']): Promise<SeedMarker> {
  const complete: SeedMarker = { ...marker, seededAt: now().toISOString() };
  await putSeedMarker(complete);
  forgetCachedFacets();
  return complete;
}

/**
 * Loads the generated dataset. The marker item is written last, so its presence means every item is
 * in place: an interrupted seed is simply run again (writes are idempotent overwrites).
 */
export async function seedCuratedDataset(options: SeedOptions = {}): Promise<SeedOutcome> {
  const started = Date.now();
  const existing = await getSeedMarker();
  if (existing && !options.force) return { skipped: true, marker: existing, ms: Date.now() - started };
  const prepared = prepareSeed(options);
  await writePreparedSeed(prepared, options);
  const marker = await markSeeded(prepared.marker);
  options.onPhase?.('dataset written');
  return { skipped: false, marker, ms: Date.now() - started };
}
