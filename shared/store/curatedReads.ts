/**
 * Reads of the curated Web3 dataset (curatedItems.ts says how it is stored). A profile is read by id
 * with one GetItem of its shard. Packages filter on facets (funds and KOLs by sector, prospects by
 * interest, builders by ecosystem and by category) whose partitions hold a copy of each entity, so
 * every package query is one Query and never a Scan. Lookups by a key other than the id read a lookup
 * facet's bucket: companies by name and funds by name find references there, then the profiles in
 * their shards; companies by domain and people by employer, employer's name and LinkedIn URL find
 * whole copies there (one Query, no shard). Facet reads are cached for FACET_CACHE_MS in each process.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { gunzipSync } from 'node:zlib';
import { getMany, type ItemRead, type ItemsRead } from './batch';
import { ddb, table } from './client';
import {
  CURATED_LAYOUT,
  type CompanyRef,
  companyDomainKey,
  entryIn,
  facetCopies,
  facetPacks,
  facetRemovals,
  linkedinSlug,
  type NamedRef,
  type SeedMarker,
  seedMarkers,
  type ShardEntry,
  shardEntriesOf,
  shardKeyOf,
  teamOf,
} from './curatedItems';
import type { StoredItem } from './entity';
import {
  BUILDER_CATEGORY_FACET,
  COMPANY_DOMAIN_FACET,
  companyDomainBucket,
  COMPANY_LOOKUP_FACET,
  companyLookupDomainBucket,
  companyLookupNameBucket,
  curatedFacetPartition,
  curatedSeedMarkerKey,
  FUND_LOOKUP_FACET,
  fundLookupNameBucket,
  PERSON_EMPLOYER_FACET,
  PERSON_LINKEDIN_FACET,
  PERSON_TEAM_FACET,
  personEmployerBucket,
  personLinkedinBucket,
  personTeamBucket,
} from './keys';
import { queryAll } from './query';
import type {
  CuratedBuilder,
  CuratedCompany,
  CuratedEntity,
  CuratedFund,
  CuratedKol,
  CuratedPerson,
  EntityKind,
} from '#shared/domain/curated/model';
import type { SectorRecord } from '#shared/domain/curated/fundStats';
import type { SectorId } from '#shared/domain/curated/taxonomy';
import { normaliseDomain } from '#shared/hostNames';
import { slugOf } from '#shared/slugs';

/** A fund as its sector index holds it: the profile without rounds, plus its record in that sector. */
export type FundInSector = Omit<CuratedFund, 'rounds'> & {
  sectorRecord: SectorRecord;
  roundCount: number;
  leadCount: number;
  topCoInvestors: string[];
};

// ---- Lookups by key ---------------------------------------------------------------------------

/** A profile by id: one GetItem of its shard. */
export async function getCuratedEntity<T extends CuratedEntity>(kind: T['kind'], id: string): Promise<T | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: shardKeyOf(kind, id) }));
  return entryIn(Item, id)?.entity as T | undefined;
}

/** A profile by id, for a readTogether with other items (undefined when missing). */
export const curatedEntityRead = <T extends CuratedEntity>(kind: T['kind'], id: string): ItemRead<T | undefined> => ({
  key: shardKeyOf(kind, id),
  decode: (item) => entryIn(item, id)?.entity as T | undefined,
});

/** The shard entries of these ids (BatchGetItem of their shards, 100 a request); missing ids are absent. */
export async function getEntries(
  kind: EntityKind,
  ids: string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, ShardEntry>> {
  const wanted = new Set(ids);
  const keys = new Map([...wanted].map((id) => [shardKeyOf(kind, id).pk, shardKeyOf(kind, id)]));
  // Reference data: eventually consistent reads are enough (and half the cost), but for a write that depends on them.
  const items = await getMany([...keys.values()], { consistent: options.consistent ?? false, maxAttempts: 9 });
  const found = new Map<string, ShardEntry>();
  for (const item of items) for (const [id, entry] of shardEntriesOf(item)) if (wanted.has(id)) found.set(id, entry);
  return found;
}

/** Profiles by id (BatchGetItem of their shards, 100 a request); missing ids are absent from the map. */
export async function getCuratedEntities<T extends CuratedEntity>(
  kind: T['kind'],
  ids: string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, T>> {
  const entries = await getEntries(kind, ids, options);
  return new Map([...entries].map(([id, entry]) => [id, entry.entity as T]));
}

/** These ids' profiles in this order, leaving out the missing and those `still` rejects (a lookup read before an import). */
async function profilesInOrder<T extends CuratedEntity>(
  kind: T['kind'],
  ids: string[],
  still: (entity: T) => boolean,
): Promise<T[]> {
  if (!ids.length) return [];
  const found = await getCuratedEntities<T>(kind, ids);
  return ids.flatMap((id) => {
    const entity = found.get(id);
    return entity && still(entity) ? [entity] : [];
  });
}

/**
 * The company at a domain. Any URL or host form is accepted (`https://www.X.io/about` finds x.io), and
 * a subdomain falls back to its parent (`app.x.io` finds x.io). The domain facet's bucket of the host
 * holds the company whole (the first by id of those at the host): one Query, no shard.
 */
export async function getCompanyByDomain(domain: string): Promise<CuratedCompany | undefined> {
  for (const host of domainCandidates(domain)) {
    const company = (await facet<CuratedCompany>(COMPANY_DOMAIN_FACET, companyDomainBucket(host))).find(
      (c) => companyDomainKey(c) === host,
    );
    if (company) return company;
  }
  return undefined;
}

/** The hosts getCompanyByDomain tries for a domain, in order: the host, then its parents down to two labels. */
function domainCandidates(domain: string): string[] {
  const hosts: string[] = [];
  for (let host = normaliseDomain(domain); host; ) {
    hosts.push(host);
    const labels = host.split('.');
    host = labels.length > 2 ? normaliseDomain(labels.slice(1).join('.')) : undefined;
  }
  return hosts;
}

export interface CompanyLookup {
  /** The given domains the curated data knows a company at, as getCompanyByDomain finds one. */
  knownDomains(domains: string[]): Promise<Set<string>>;
  /** Each given name's curated company (the first by id among those of its slug), as findByName's first. */
  companiesByName(names: string[]): Promise<Map<string, CompanyRef>>;
}

/**
 * Companies by domain and by name for many keys at once (growth resolve): the lookup facet's buckets
 * the keys fall in, one Query each and each read once by this reader, so a thousand keys cost at most
 * COMPANY_LOOKUP_BUCKETS Queries instead of one a key. Not cached across readers: an import is seen at once.
 */
export function companyLookup(): CompanyLookup {
  const read = new Map<string, Promise<CompanyRef[]>>();
  const bucket = (value: string) => {
    const known = read.get(value);
    if (known) return known;
    const pk = curatedFacetPartition(COMPANY_LOOKUP_FACET, value);
    const members = queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }).then(
      facetMembers<CompanyRef>,
    );
    read.set(value, members);
    return members;
  };
  const companiesIn = async (buckets: string[]) => (await Promise.all([...new Set(buckets)].map(bucket))).flat();
  return {
    async knownDomains(domains) {
      const candidates = new Map(domains.map((d) => [d, domainCandidates(d)]));
      const companies = await companiesIn([...candidates.values()].flat().map(companyLookupDomainBucket));
      const stored = new Set(companies.map(companyDomainKey));
      return new Set(domains.filter((d) => (candidates.get(d) ?? []).some((host) => stored.has(host))));
    },
    async companiesByName(names) {
      const slugs = new Map(names.map((n) => [n, slugOf(n)] as const).filter(([, slug]) => slug !== ''));
      const companies = await companiesIn([...slugs.values()].map(companyLookupNameBucket));
      const first = new Map<string, CompanyRef>();
      for (const c of companies) {
        const slug = slugOf(c.name);
        const kept = first.get(slug);
        if (!kept || c.id < kept.id) first.set(slug, c);
      }
      const found = new Map<string, CompanyRef>();
      for (const [name, slug] of slugs) {
        const hit = first.get(slug);
        if (hit !== undefined) found.set(name, hit);
      }
      return found;
    },
  };
}

/** Everyone working at a company (or a fund, by the fund's id), in id order: one bucket, no shard. */
export async function listPeopleByCompany(companyId: string): Promise<CuratedPerson[]> {
  const people = await facet<CuratedPerson>(PERSON_EMPLOYER_FACET, personEmployerBucket(companyId));
  return people.filter((p) => p.companyId === companyId);
}

/**
 * People whose employer has this name (any case and punctuation, as findByName), in the order of
 * their company's id, then theirs: what findByName then listPeopleByCompany of each company returns,
 * from one bucket. The name is the one on the person's record.
 */
export async function listPeopleByCompanyName(name: string): Promise<CuratedPerson[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  const people = (await facet<CuratedPerson>(PERSON_TEAM_FACET, personTeamBucket(slug))).filter(
    (p) => teamOf(p) === slug,
  );
  const order = (p: CuratedPerson) => `${p.companyId}#${p.id}`;
  return people.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

export async function getPersonByLinkedinUrl(url: string): Promise<CuratedPerson | undefined> {
  const slug = linkedinSlug(url);
  if (!slug) return undefined;
  return (await facet<CuratedPerson>(PERSON_LINKEDIN_FACET, personLinkedinBucket(slug))).find(
    (p) => !!p.linkedinUrl && linkedinSlug(p.linkedinUrl) === slug,
  );
}

/** The lookup facet of a kind's names and the bucket of a slug there. */
const NAME_LOOKUPS = {
  company: { facet: COMPANY_LOOKUP_FACET, bucket: companyLookupNameBucket },
  fund: { facet: FUND_LOOKUP_FACET, bucket: fundLookupNameBucket },
} as const;

/** Companies or funds whose name has this slug (`Nebula Labs`, `nebula-labs` and `NEBULA LABS` are one name), in id order. */
export async function findByName(
  kind: 'company' | 'fund',
  name: string,
): Promise<{ id: string; name: string; domain: string }[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  const { facet: lookup, bucket } = NAME_LOOKUPS[kind];
  return (await facet<NamedRef>(lookup, bucket(slug)))
    .filter((r) => slugOf(r.name) === slug)
    .map(({ id, name, domain }) => ({ id, name, domain }));
}

/** The whole profiles of the funds or companies whose name has this slug, in id order. */
export async function profilesNamed<T extends CuratedFund | CuratedCompany>(
  kind: T['kind'],
  name: string,
): Promise<T[]> {
  const slug = slugOf(name);
  const named = await findByName(kind, name);
  return profilesInOrder<T>(
    kind,
    named.map((n) => n.id),
    (e) => slugOf(e.name) === slug,
  );
}

// ---- Facet queries (one Query each) ----------------------------------------------------------

/**
 * Facet partitions are read-mostly reference data shared by every user, so a warm Lambda keeps what it
 * read for a minute: repeated queries on a sector skip the Query and the JSON decoding. A seed or an
 * import reaches running functions within FACET_CACHE_MS.
 */
export const FACET_CACHE_MS = 60_000;
const facetCache = new Map<string, { at: number; value: Promise<unknown[]> }>();

/** Drops cached facet reads (after this process wrote curated data). */
export const forgetCachedFacets = (): void => facetCache.clear();

const facet = <T>(name: string, value: string): Promise<T[]> => {
  const pk = curatedFacetPartition(name, value);
  // By table too: a process may read two tables (the tests give some suites one of their own).
  const cacheKey = `${table()}\u0000${pk}`;
  const hit = facetCache.get(cacheKey);
  if (hit && Date.now() - hit.at < FACET_CACHE_MS) return hit.value as Promise<T[]>;
  const read = queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }).then(
    facetMembers<T>,
  );
  facetCache.set(cacheKey, { at: Date.now(), value: read });
  read.catch(() => facetCache.delete(cacheKey));
  return read;
};

const unpack = <T>(data: Uint8Array): T[] => JSON.parse(gunzipSync(data).toString('utf8')) as T[];

/** The entities of one facet partition: seed packs, overridden by single-entity items and removal markers. */
function facetMembers<T>(items: StoredItem[]): T[] {
  const members = new Map<string, T>();
  // A pack whose data is text is an earlier layout's, outgrown (a re-seed removes it): not a member list any more.
  for (const item of items)
    if (item.entity === facetPacks.name && item.data instanceof Uint8Array)
      for (const e of unpack<T & { id: string }>(facetPacks.fromItem(item).data)) members.set(e.id, e);
  for (const item of items) {
    const id = String(item.sk).slice(String(item.sk).indexOf('#') + 1);
    if (item.entity === facetCopies.name) members.set(id, JSON.parse(facetCopies.fromItem(item).data) as T);
    else if (item.entity === facetRemovals.name) members.delete(id);
  }
  // In id order, as single-entity items (sort key KIND#id) always came back.
  return [...members.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}

export const listFundsInSector = (sector: SectorId): Promise<FundInSector[]> => facet('FUND_SECTOR', sector);
export const listKolsInSector = (sector: SectorId): Promise<CuratedKol[]> => facet('KOL_SECTOR', sector);
export const listProspectsInSector = (sector: SectorId): Promise<CuratedPerson[]> => facet('PROSPECT_SECTOR', sector);
export const listBuildersInEcosystem = (ecosystem: string): Promise<CuratedBuilder[]> =>
  facet('BUILDER_ECOSYSTEM', ecosystem);
export const listBuildersInCategory = (category: string): Promise<CuratedBuilder[]> =>
  facet(BUILDER_CATEGORY_FACET, category);

export async function getSeedMarker(): Promise<SeedMarker | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: curatedSeedMarkerKey() }));
  const marker = seedMarkers.maybe(Item)?.marker;
  return marker?.layout === CURATED_LAYOUT ? marker : undefined;
}

/**
 * The shards of the funds whose name has this slug, named by the name's lookup bucket (read first), as
 * a read a caller may send in its own BatchGetItem (an execute sends it with the quote's token), decoded
 * into those funds' stored entries (with the portfolio kept beside each, when it is), in id order.
 */
export async function fundsNamedRead(name: string): Promise<ItemsRead<ShardEntry[]>> {
  const slug = slugOf(name);
  const ids = (await findByName('fund', name)).map((f) => f.id);
  const keys = [...new Map(ids.map((id) => [shardKeyOf('fund', id).pk, shardKeyOf('fund', id)])).values()];
  return {
    keys,
    decodeAll: (items) => {
      const entries = new Map<string, ShardEntry>();
      for (const item of items) if (item) for (const [id, entry] of shardEntriesOf(item)) entries.set(id, entry);
      return ids.flatMap((id) => {
        const entry = entries.get(id);
        return entry?.entity.kind === 'fund' && slugOf(entry.entity.name) === slug ? [entry] : [];
      });
    },
  };
}

/** A read on its own (not beside a caller's items): eventually consistent, as reference data may be. */
export async function readAlone<T>(read: ItemsRead<T>): Promise<T> {
  const found = new Map((await getMany(read.keys, { consistent: false, maxAttempts: 9 })).map((i) => [i.pk, i]));
  return read.decodeAll(read.keys.map((key) => found.get(key.pk)));
}
