/**
 * How the curated Web3 dataset is stored in the single table, in few large items (DynamoDB Local
 * writes items, not bytes, slowly, and a first start writes the whole dataset): the shards of
 * profiles, the facet copies and their packs, the seed marker. curatedReads.ts reads them,
 * curatedWrites.ts writes them; this module is what both must agree on.
 */
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { defineEntity, type StoredItem } from './entity';
import { curatedFacetKey, curatedFacetPackKey, curatedSeedMarkerKey, curatedShardKey, curatedShardOf } from './keys';
import type { CuratedCompany, CuratedEntity, CuratedPerson, EntityKind } from '#shared/domain/curated/model';
import type { PortfolioCompany } from '#shared/domain/curated/portfolio';
import { normaliseDomain } from '#shared/hostNames';
import { slugOf } from '#shared/slugs';

export type Item = Record<string, unknown> & { pk: string; sk: string };
/** One stored item of the curated dataset, as the seed writes it. */
export type CuratedItem = Item;

// ---- Shards of profiles -----------------------------------------------------------------------

/** One profile in its shard: the entity, and for a fund the portfolio kept beside it (shared/domain/curated/portfolio.ts). */
export interface ShardEntry {
  entity: CuratedEntity;
  portfolio?: PortfolioCompany[];
}

/**
 * A shard: its profiles as gzipped JSON (about a seventh of the text, so a read of a shard costs about
 * what one profile item did) and the version its last writer gave it, which every write but the
 * first checks (another writer in between makes it read the shard again).
 */
export const shards = defineEntity<{ version: string; data: Uint8Array }>()({
  name: 'curatedShard',
  key: (s: { kind: EntityKind; shard: number }) => curatedShardKey(s.kind, s.shard),
  keyOnly: ['kind', 'shard'],
});

/**
 * gzip's fastest level: a first start compresses about 75 MB of JSON while the JVM starts, and the
 * default level took twice as long for about a fifth less.
 */
export const FAST = { level: constants.Z_BEST_SPEED };

/** A shard's compressed profiles stay well under DynamoDB's 400 KB item limit. */
export const SHARD_BUDGET_BYTES = 300_000;

/**
 * The stored form of a shard's entries, as [id, entry] pairs (ids never become keys of a plain
 * object). Past the budget the funds' portfolios are left out: such funds' portfolios are read the long way.
 */
function encodeEntries(entries: Map<string, ShardEntry>): Uint8Array {
  const data = gzipSync(JSON.stringify([...entries]), FAST);
  if (data.byteLength <= SHARD_BUDGET_BYTES) return data;
  const bare = gzipSync(JSON.stringify([...entries].map(([id, { entity }]) => [id, { entity }])), FAST);
  if (bare.byteLength > SHARD_BUDGET_BYTES)
    throw new Error(`A curated shard would hold ${bare.byteLength} bytes, over its ${SHARD_BUDGET_BYTES}`);
  return bare;
}

export const decodeEntries = (data: Uint8Array): Map<string, ShardEntry> =>
  new Map(JSON.parse(gunzipSync(data).toString('utf8')) as [string, ShardEntry][]);

/** The entries of a stored shard item (tests read the layout through it). */
export const shardEntriesOf = (item: StoredItem): Map<string, ShardEntry> => decodeEntries(shards.fromItem(item).data);

export const shardItem = (kind: EntityKind, shard: number, entries: Map<string, ShardEntry>): Item =>
  shards.item({ kind, shard, version: randomUUID(), data: encodeEntries(entries) });

/** The shard key a profile is read by. */
export const shardKeyOf = (kind: EntityKind, id: string) => curatedShardKey(kind, curatedShardOf(kind, id));

/** The profile `id` of a shard item, or undefined (no shard, or not in it). */
export const entryIn = (item: StoredItem | undefined, id: string): ShardEntry | undefined =>
  item ? shardEntriesOf(item).get(id) : undefined;

// ---- Facet copies -------------------------------------------------------------------------------

/** One entity's copy under one facet value, as JSON text. */
export const facetCopies = defineEntity<{ data: string }>()({
  name: 'curatedFacet',
  key: (e: { facet: string; value: string; kind: EntityKind; id: string }) =>
    curatedFacetKey(e.facet, e.value, e.kind, e.id),
  keyOnly: ['facet', 'value', 'kind', 'id'],
});
/** Hides a copy a seed pack still holds (its data is always `{}`). */
export const facetRemovals = defineEntity<{ data: string }>()({
  name: 'curatedFacetRemoved',
  key: (k: { pk: string; sk: string }) => k,
  keyOnly: ['pk', 'sk'],
});
/** Many entities' copies under one facet value (the seed): a JSON array, gzipped as the shards are. */
export const facetPacks = defineEntity<{ data: Uint8Array }>()({
  name: 'curatedFacetPack',
  key: (p: { facet: string; value: string; index: number }) => curatedFacetPackKey(p.facet, p.value, p.index),
  keyOnly: ['facet', 'value', 'index'],
});

/**
 * The profile slug of a LinkedIn URL (`https://linkedin.com/in/ada-park-1a/` → `ada-park-1a`), or undefined.
 * Malformed percent-encoding (`%E0%A4%A`, from a customer's row) is kept as typed: it names no profile,
 * and must not throw (it failed every enrichment job carrying such a row).
 */
export function linkedinSlug(url: string): string | undefined {
  const match = /linkedin\.com\/in\/([^/?#]+)/i.exec(url.trim());
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]).toLowerCase();
  } catch {
    return match[1].toLowerCase();
  }
}

/** The domain a company is found under (the lookup facet). */
export const companyDomainKey = (company: Pick<CuratedCompany, 'domain'>) =>
  normaliseDomain(company.domain) ?? company.domain;

/** A company or fund as its lookup facet holds it. */
export type CompanyRef = Pick<CuratedCompany, 'id' | 'name' | 'domain'>;
export type NamedRef = CompanyRef;
/** The slug of the employer's name as a person records it (companies only; '' for a fund's people). */
export const teamOf = (person: CuratedPerson): string =>
  person.organizationKind === 'company' ? slugOf(person.companyName) : '';

// ---- Seed marker ------------------------------------------------------------------------------

/**
 * How curated items are laid out. A database seeded under an earlier layout (2: packed facets, name
 * and LinkedIn lookups on gsi3; 3: the company lookup facet; 4: people by their employer's name on
 * gsi1; 5: funds carry their portfolio; 6: profiles in shards, lookups in lookup facets; 7: people's
 * lookups and companies by domain hold whole copies) is seeded again: the marker then reads as absent.
 */
export const CURATED_LAYOUT = 7;
/** The first layout keeping profiles in shards, which a re-seed keeps (the earlier ones' profile items it does not read). */
export const FIRST_SHARDED_LAYOUT = 6;

export interface SeedMarker {
  layout: number;
  seed: number;
  scale: number;
  counts: Record<string, number>;
  items: number;
  seededAt: string;
}

/** The one item that says which dataset the table holds. */
export const seedMarkers = defineEntity<{ marker: SeedMarker }>()({
  name: 'curatedSeed',
  key: () => curatedSeedMarkerKey(),
});
