/** The curated answers every provider of a container reads, kept a few minutes (the table changes only by imports). */
import { cachedCuratedSource, type CuratedSource } from './curatedSource';
import { storeCuratedSource } from './storeCuratedSource';

let curatedSource: CuratedSource | undefined;

export const sharedCurated = (): CuratedSource =>
  (curatedSource ??= cachedCuratedSource(storeCuratedSource(), { ttlMs: 5 * 60_000, maxEntries: 20_000 }));
