/**
 * The curated Web3 dataset in the single table. Each entity has a profile item (read by id) and
 * index items under the facets its packages filter on (funds and KOLs by sector, prospects by
 * interest, builders by ecosystem, companies and funds by name, people by LinkedIn URL); gsi2 on the
 * profile items serves companies by domain, people by employer and builders by category. Index items
 * carry a copy of the entity, so every package query is one Query and never a Scan. Companies also
 * have a lookup facet (id, name and domain by a bucket of domain and of name) that answers many
 * domains and names at once.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { bulkPut, deleteAll, getMany, putAll, type ItemRead } from './batch';
import { ddb, isConditionFailure, table } from './client';
import { defineEntity, type IndexAttributes, type StoredItem } from './entity';
import { queryAll } from './query';
import {
  buildersByCategoryIndexKey,
  buildersByCategoryPartition,
  companyByDomainIndexKey,
  companyLookupDomainBucket,
  companyLookupNameBucket,
  COMPANY_LOOKUP_FACET,
  companyByDomainPartition,
  curatedFacetKey,
  curatedFacetPackKey,
  curatedFacetPartition,
  curatedFacetPacksFrom,
  CURATED_FACET_PREFIX,
  curatedLinkedinIndexKey,
  curatedLinkedinPartition,
  curatedNameIndexKey,
  curatedNamePartition,
  curatedProfileKey,
  curatedSeedMarkerKey,
  peopleByOrganizationIndexKey,
  peopleByOrganizationPartition,
  teamByOrganizationNameIndexKey,
  teamByOrganizationNamePartition,
} from './keys';
import type {
  CuratedBuilder,
  CuratedCompany,
  CuratedEntity,
  CuratedFund,
  CuratedKol,
  CuratedPerson,
  EntityKind,
} from '#shared/data/model';
import { DATASET_AS_OF, slugOf } from '#shared/data/model';
import { fundProfileStats, sectorRecord, type SectorRecord } from '#shared/data/fundStats';
import type { SectorId } from '#shared/data/taxonomy';
import { normaliseDomain } from '#shared/hostNames';
import { fundsConcerned, portfolioCompanyIds, portfolioOf, type PortfolioCompany } from '#shared/data/portfolio';

export type {
  CuratedBuilder,
  CuratedCompany,
  CuratedEntity,
  CuratedFund,
  CuratedKol,
  CuratedPerson,
} from '#shared/data/model';

/** A fund as its sector index holds it: the profile without rounds, plus its record in that sector. */
export type FundInSector = Omit<CuratedFund, 'rounds'> & {
  sectorRecord: SectorRecord;
  roundCount: number;
  leadCount: number;
  topCoInvestors: string[];
};

type Item = Record<string, unknown> & { pk: string; sk: string };
/** One stored item of the curated dataset, as the seed writes it. */
export type CuratedItem = Item;

/**
 * A profile: the entity as JSON text (one string attribute reads and writes far faster than a deep
 * map), its kind, and for a fund the revision of that text and the portfolio kept beside it.
 */
interface CuratedProfile {
  kind: EntityKind;
  data: string;
  rev?: string;
  portfolio?: string;
}
const profiles = defineEntity<CuratedProfile>()({
  name: 'curated',
  key: (p: { kind: EntityKind; id: string }) => curatedProfileKey(p.kind, p.id),
  keyOnly: ['id'],
});
/** One entity's copy under one facet value, as JSON text. */
const facetCopies = defineEntity<{ data: string }>()({
  name: 'curatedFacet',
  key: (e: { facet: string; value: string; kind: EntityKind; id: string }) =>
    curatedFacetKey(e.facet, e.value, e.kind, e.id),
  keyOnly: ['facet', 'value', 'kind', 'id'],
});
/** Hides a copy a seed pack still holds (its data is always `{}`). */
const facetRemovals = defineEntity<{ data: string }>()({
  name: 'curatedFacetRemoved',
  key: (k: { pk: string; sk: string }) => k,
  keyOnly: ['pk', 'sk'],
});
/** Many entities' copies under one facet value (the seed): a JSON array as text. */
const facetPacks = defineEntity<{ data: string }>()({
  name: 'curatedFacetPack',
  key: (p: { facet: string; value: string; index: number }) => curatedFacetPackKey(p.facet, p.value, p.index),
  keyOnly: ['facet', 'value', 'index'],
});

/** A profile item (never absent): its entity, parsed from the JSON text. */
const decodeItem = <T>(item: StoredItem): T => JSON.parse(profiles.fromItem(item).data) as T;
const decode = <T>(item: StoredItem | undefined): T | undefined => (item ? decodeItem<T>(item) : undefined);

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

const profileItem = (
  entity: CuratedEntity,
  index: IndexAttributes = {},
  fund: Pick<CuratedProfile, 'rev' | 'portfolio'> = {},
  data = JSON.stringify(entity),
): Item => profiles.item({ kind: entity.kind, id: entity.id, data, ...fund }, index);
/** One copy of an entity under one facet value (a sector, an ecosystem). */
interface FacetEntry {
  facet: string;
  value: string;
  kind: EntityKind;
  id: string;
  data: unknown;
}
const facetItem = (e: FacetEntry): Item => facetCopies.item({ ...e, data: JSON.stringify(e.data) });
/** Marks an entity as gone from a facet value, hiding a copy a seed pack still holds. */
const facetRemovedItem = (key: { pk: string; sk: string }): Item =>
  facetRemovals.item({ pk: key.pk, sk: key.sk, data: '{}' });
/** Pack items stay well under DynamoDB's 400 KB item limit. */
const FACET_PACK_BYTES = 300_000;
const nameIndex = (entity: CuratedFund | CuratedCompany) =>
  curatedNameIndexKey(entity.kind, slugOf(entity.name), entity.id);
/** The domain a company is found under (gsi2 and the lookup facet). */
const companyDomainKey = (company: Pick<CuratedCompany, 'domain'>) => normaliseDomain(company.domain) ?? company.domain;

/** What tells one stored version of a fund from another (a portfolio is only written onto the version it was read from). */
const revisionOf = (fundData: string) => createHash('sha256').update(fundData).digest('base64url').slice(0, 16);

/**
 * The portfolio as stored on its fund, or undefined when fund and portfolio together would come near
 * DynamoDB's 400 KB item limit (long texts, hundreds of companies): such a fund is read the long way.
 */
const ITEM_BUDGET_BYTES = 350_000;
function portfolioText(fundData: string, portfolio: PortfolioCompany[]): string | undefined {
  const text = JSON.stringify(portfolio);
  return Buffer.byteLength(text) + Buffer.byteLength(fundData) <= ITEM_BUDGET_BYTES ? text : undefined;
}

/**
 * The profile and lookup items of one entity (everything but its facet copies). A fund's carries its
 * portfolio (shared/data/portfolio.ts), which the name index projects with it.
 */
function profileItemsFor(entity: CuratedEntity, portfolio?: PortfolioCompany[]): Item[] {
  switch (entity.kind) {
    case 'fund': {
      // The fund's JSON once: stored as its data, hashed as its revision, counted against the item budget.
      const data = JSON.stringify(entity);
      const text = portfolio && portfolioText(data, portfolio);
      return [
        profileItem(entity, nameIndex(entity), { rev: revisionOf(data), ...(text ? { portfolio: text } : {}) }, data),
      ];
    }
    case 'company':
      return [
        profileItem(entity, { ...companyByDomainIndexKey(companyDomainKey(entity), entity.id), ...nameIndex(entity) }),
      ];
    case 'person': {
      const slug = entity.linkedinUrl ? linkedinSlug(entity.linkedinUrl) : undefined;
      const team = slugOf(entity.companyName)
        ? teamByOrganizationNameIndexKey(
            entity.organizationKind,
            slugOf(entity.companyName),
            entity.companyId,
            entity.id,
          )
        : {};
      return [
        profileItem(entity, {
          ...peopleByOrganizationIndexKey(entity.companyId, entity.id),
          ...team,
          ...(slug ? curatedLinkedinIndexKey(slug, entity.id) : {}),
        }),
      ];
    }
    case 'kol':
      return [profileItem(entity)];
    case 'builder':
      return [profileItem(entity, buildersByCategoryIndexKey(entity.category, entity.id))];
  }
}

/** The copies of one entity its packages' facets hold. */
function facetEntriesFor(entity: CuratedEntity): FacetEntry[] {
  const entry = (facet: string, value: string, data: unknown): FacetEntry => ({
    facet,
    value,
    kind: entity.kind,
    id: entity.id,
    data,
  });
  switch (entity.kind) {
    case 'fund': {
      const { rounds, ...summary } = entity;
      return entity.sectors.map((s) =>
        entry('FUND_SECTOR', s, {
          ...summary,
          roundCount: rounds.length,
          ...fundProfileStats(entity),
          sectorRecord: sectorRecord(entity, s, DATASET_AS_OF),
        }),
      );
    }
    case 'company': {
      const ref: CompanyRef = { id: entity.id, name: entity.name, domain: entity.domain };
      const buckets = new Set([
        companyLookupDomainBucket(companyDomainKey(entity)),
        companyLookupNameBucket(slugOf(entity.name)),
      ]);
      return [...buckets].map((bucket) => entry(COMPANY_LOOKUP_FACET, bucket, ref));
    }
    case 'person':
      return entity.interests.map((s) => entry('PROSPECT_SECTOR', s, entity));
    case 'kol':
      return entity.sectors.map((s) => entry('KOL_SECTOR', s, entity));
    case 'builder':
      return entity.ecosystems.map((e) => entry('BUILDER_ECOSYSTEM', e, entity));
  }
}

/**
 * Every item that stores one entity on its own: its profile, lookups and facet copies (imports). A
 * fund's profile comes without its portfolio here: refreshPortfolios writes it once the import is stored.
 */
export function curatedItemsFor(entity: CuratedEntity): Item[] {
  return [...profileItemsFor(entity), ...facetEntriesFor(entity).map(facetItem)];
}

/**
 * Rewrites the portfolio kept on every fund that writing `changed` (new and replaced versions of
 * entities, already stored) concerns, from what is stored now (strongly consistent reads). Only the
 * portfolio attribute is written, and only while the fund is as read (its `rev`): another import
 * that changed the fund meanwhile makes this one read it again, and a fund's own data is never put
 * back from an older read. `known` saves reading the people's companies again.
 */
export async function refreshPortfolios(changed: CuratedEntity[], known: Map<string, CuratedEntity>): Promise<void> {
  const companiesOfPeople = changed.flatMap((e) =>
    e.kind === 'person' && e.organizationKind === 'company' && !known.has(e.companyId) ? [e.companyId] : [],
  );
  const at = new Map(known);
  for (const [id, company] of await getCuratedEntities('company', companiesOfPeople, { consistent: true }))
    at.set(id, company);
  for (const fundId of fundsConcerned(changed, (id) => at.get(id))) await refreshPortfolio(fundId);
}

async function refreshPortfolio(fundId: string, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { Item } = await ddb().send(
      new GetCommand({ TableName: table(), Key: curatedProfileKey('fund', fundId), ConsistentRead: true }),
    );
    const profile = profiles.maybe(Item);
    if (!profile) return;
    const fund = JSON.parse(profile.data) as CuratedFund;
    const portfolio = await readPortfolio(fund, true);
    const text = portfolioText(profile.data, portfolio);
    const rev = profile.rev;
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: table(),
          Key: curatedProfileKey('fund', fundId),
          ...profiles.update({
            set: { portfolio: text },
            remove: text === undefined ? ['portfolio'] : [],
            condition:
              rev === undefined ? 'attribute_not_exists(rev)' : { expression: 'rev = :rev', values: { ':rev': rev } },
          }),
        }),
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err) || attempt >= attempts) throw err;
    }
  }
}

/** The portfolio of a fund from its stored companies and their contacts (two BatchGetItems, three past 100 companies). */
async function readPortfolio(fund: CuratedFund, consistent = false): Promise<PortfolioCompany[]> {
  const companies = await getCuratedEntities<CuratedCompany>('company', portfolioCompanyIds(fund), { consistent });
  const contacts = await getCuratedEntities<CuratedPerson>(
    'person',
    [...companies.values()].flatMap((c) => (c.primaryContactId ? [c.primaryContactId] : [])),
    { consistent },
  );
  return portfolioOf(fund, (id) => companies.get(id) ?? contacts.get(id));
}

/** The items of a whole dataset, facet copies packed into few items per facet value (the seed). */
export function packedCuratedItems(entities: CuratedEntity[], packBytes = FACET_PACK_BYTES): Item[] {
  const byPartition = new Map<string, FacetEntry[]>();
  for (const e of entities.flatMap(facetEntriesFor)) {
    const pk = curatedFacetPartition(e.facet, e.value);
    // Appended in place: copying the list on every entry was quadratic (seconds of garbage collection on the seed).
    const entries = byPartition.get(pk);
    if (entries) entries.push(e);
    else byPartition.set(pk, [e]);
  }
  const packs: Item[] = [];
  for (const entries of byPartition.values()) {
    const { facet, value } = entries[0];
    let [texts, bytes, index] = [[] as string[], 0, 0];
    const flush = () => {
      if (!texts.length) return;
      packs.push(facetPacks.item({ facet, value, index: index++, data: `[${texts.join(',')}]` }));
      [texts, bytes] = [[], 0];
    };
    for (const entry of entries) {
      const text = JSON.stringify(entry.data);
      const size = Buffer.byteLength(text);
      if (bytes + size > packBytes) flush();
      texts.push(text);
      bytes += size + 1;
    }
    flush();
  }
  const byId = new Map(entities.map((e) => [e.id, e]));
  const entity = (id: string) => byId.get(id);
  return [
    ...entities.flatMap((e) => profileItemsFor(e, e.kind === 'fund' ? portfolioOf(e, entity) : undefined)),
    ...packs,
  ];
}

/**
 * Writes items in batches of 25, `concurrency` batches at a time, retrying unprocessed items with
 * backoff. Curated items are plain overwrites (the same entity written twice gives the same items).
 */
export async function putCuratedItems(
  items: Item[],
  options: { concurrency?: number; onProgress?: (written: number) => void } = {},
): Promise<void> {
  await bulkPut(items, { concurrency: options.concurrency ?? 12, onProgress: options.onProgress });
}

/**
 * Removes index items an entity no longer has (after an import replaced it). A facet copy is replaced
 * by a removal marker instead, as a seed pack may hold a copy too.
 */
export async function deleteCuratedKeys(keys: { pk: string; sk: string }[]): Promise<void> {
  const isFacet = (k: { pk: string }) => k.pk.startsWith(CURATED_FACET_PREFIX);
  await putAll(keys.filter(isFacet).map(facetRemovedItem));
  await deleteAll(keys.filter((k) => !isFacet(k)));
}

/**
 * After a re-seed, packs beyond the ones just written (a larger earlier dataset) are removed. Only the
 * sort keys past the last pack written are queried: DynamoDB Local reads whole items even for a
 * projection, and reading back every pack just written cost a first start seconds.
 */
async function deleteOutgrownPacks(written: Item[]): Promise<void> {
  const packsByPartition = new Map<string, Set<string>>();
  for (const item of written)
    if (item.entity === facetPacks.name)
      packsByPartition.set(item.pk, (packsByPartition.get(item.pk) ?? new Set()).add(item.sk));
  for (const [pk, kept] of packsByPartition) {
    const after = curatedFacetPacksFrom(kept.size);
    const stored = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': after.from, ':to': after.to },
      ProjectionExpression: 'pk, sk',
    });
    await deleteAll(
      stored.filter((i) => !kept.has(i.sk as string)).map((i) => ({ pk: i.pk as string, sk: i.sk as string })),
    );
  }
}

/**
 * Writes the items of a whole dataset (packedCuratedItems), then removes packs a larger earlier
 * dataset left, and forgets the facets this process cached.
 */
export async function writePackedCuratedItems(
  items: Item[],
  options: { concurrency?: number; onProgress?: (written: number) => void } = {},
): Promise<number> {
  await putCuratedItems(items, options);
  await deleteOutgrownPacks(items);
  forgetCachedFacets();
  return items.length;
}

// ---- Lookups by key ---------------------------------------------------------------------------

export async function getCuratedEntity<T extends CuratedEntity>(kind: T['kind'], id: string): Promise<T | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: curatedProfileKey(kind, id) }));
  return decode<T>(Item);
}

/** A profile by id, for a readTogether with other items (undefined when missing). */
export const curatedEntityRead = <T extends CuratedEntity>(kind: T['kind'], id: string): ItemRead<T | undefined> => ({
  key: curatedProfileKey(kind, id),
  decode: (item) => decode<T>(item),
});

/** Profiles by id (BatchGetItem, 100 keys a request); missing ids are absent from the map. */
export async function getCuratedEntities<T extends CuratedEntity>(
  kind: T['kind'],
  ids: string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, T>> {
  // Reference data: eventually consistent reads are enough (and half the cost), but for a write that depends on them.
  const items = await getMany(
    [...new Set(ids)].map((id) => curatedProfileKey(kind, id)),
    { consistent: options.consistent ?? false, maxAttempts: 9 },
  );
  return new Map(items.map((item) => decodeItem<T>(item)).map((entity) => [entity.id, entity]));
}

/**
 * The company at a domain. Any URL or host form is accepted (`https://www.X.io/about` finds x.io), and
 * a subdomain falls back to its parent (`app.x.io` finds x.io).
 */
export async function getCompanyByDomain(domain: string): Promise<CuratedCompany | undefined> {
  const host = normaliseDomain(domain);
  if (!host) return undefined;
  const { Items } = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': companyByDomainPartition(host) },
      Limit: 1,
    }),
  );
  const found = decode<CuratedCompany>(Items?.[0]);
  const labels = host.split('.');
  return found ?? (labels.length > 2 ? getCompanyByDomain(labels.slice(1).join('.')) : undefined);
}

/** A company as the lookup facet holds it. */
export type CompanyRef = Pick<CuratedCompany, 'id' | 'name' | 'domain'>;

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
 * COMPANY_LOOKUP_BUCKETS Queries instead of one a key. Not cached across readers: an import is seen
 * at once, as by the per-key lookups.
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

/** Everyone working at a company (or a fund, by the fund's id). */
export async function listPeopleByCompany(companyId: string): Promise<CuratedPerson[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': peopleByOrganizationPartition(companyId) },
  });
  return items.map((i) => decodeItem<CuratedPerson>(i));
}

/**
 * People whose employer has this name (any case and punctuation, as findByName), in the order of
 * their company's id, then theirs: what findByName then listPeopleByCompany of each company returns,
 * in one Query. The name is the one on the person's record.
 */
export async function listPeopleByCompanyName(name: string): Promise<CuratedPerson[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': teamByOrganizationNamePartition('company', slug) },
  });
  return items.map((i) => decodeItem<CuratedPerson>(i));
}

export async function getPersonByLinkedinUrl(url: string): Promise<CuratedPerson | undefined> {
  const slug = linkedinSlug(url);
  if (!slug) return undefined;
  const { Items } = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': curatedLinkedinPartition(slug) },
      Limit: 1,
    }),
  );
  return decode<CuratedPerson>(Items?.[0]);
}

/** Companies or funds whose name has this slug (`Nebula Labs`, `nebula-labs` and `NEBULA LABS` are one name). */
export async function findByName(
  kind: 'company' | 'fund',
  name: string,
): Promise<{ id: string; name: string; domain: string }[]> {
  return (await profilesNamed<CuratedFund | CuratedCompany>(kind, name)).map(({ id, name, domain }) => ({
    id,
    name,
    domain,
  }));
}

/** The whole profiles of the funds or companies whose name has this slug: the name index projects every attribute. */
export async function profilesNamed<T extends CuratedFund | CuratedCompany>(
  kind: T['kind'],
  name: string,
): Promise<T[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  // The profile alone: a fund's item also holds its portfolio, which name lookups do not need.
  const items = await queryAll({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': curatedNamePartition(kind, slug) },
    ProjectionExpression: '#entity, #data',
    ExpressionAttributeNames: { '#entity': 'entity', '#data': 'data' },
  });
  return items.map((i) => decodeItem<T>(i));
}

/** A fund found by name with its portfolio (shared/data/portfolio.ts). */
export interface FundWithPortfolio {
  fund: CuratedFund;
  portfolio: PortfolioCompany[];
}

/**
 * The funds whose name has this slug, each with its portfolio: one Query, as the name index projects
 * the portfolio too. A fund without one (over the item budget, written under layout 4, or between an
 * import's write and its refresh) or whose portfolio misses one of its companies (an import racing
 * another) has its companies and contacts read instead.
 */
export async function fundsNamedWithPortfolio(name: string): Promise<FundWithPortfolio[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  const items = await queryAll({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': curatedNamePartition('fund', slug) },
  });
  return Promise.all(
    items.map(async (item) => {
      const profile = profiles.fromItem(item);
      const fund = JSON.parse(profile.data) as CuratedFund;
      const stored =
        profile.portfolio === undefined ? undefined : (JSON.parse(profile.portfolio) as PortfolioCompany[]);
      const storedIds = new Set(stored?.map((c) => c.id));
      const covers = stored && portfolioCompanyIds(fund).every((id) => storedIds.has(id));
      return { fund, portfolio: stored && covers ? stored : await readPortfolio(fund) };
    }),
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
  const hit = facetCache.get(pk);
  if (hit && Date.now() - hit.at < FACET_CACHE_MS) return hit.value as Promise<T[]>;
  const read = queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }).then(
    facetMembers<T>,
  );
  facetCache.set(pk, { at: Date.now(), value: read });
  read.catch(() => facetCache.delete(pk));
  return read;
};

/** The entities of one facet partition: seed packs, overridden by single-entity items and removal markers. */
function facetMembers<T>(items: StoredItem[]): T[] {
  const members = new Map<string, T>();
  for (const item of items)
    if (item.entity === facetPacks.name)
      for (const e of JSON.parse(facetPacks.fromItem(item).data) as (T & { id: string })[]) members.set(e.id, e);
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
export async function listBuildersInCategory(category: string): Promise<CuratedBuilder[]> {
  const key = `gsi2:${buildersByCategoryPartition(category)}`;
  const hit = facetCache.get(key);
  if (hit && Date.now() - hit.at < FACET_CACHE_MS) return hit.value as Promise<CuratedBuilder[]>;
  const read = queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': buildersByCategoryPartition(category) },
  }).then((items) => items.map((i) => decodeItem<CuratedBuilder>(i)));
  facetCache.set(key, { at: Date.now(), value: read });
  read.catch(() => facetCache.delete(key));
  return read;
}

// ---- Seed marker ------------------------------------------------------------------------------

/**
 * How curated items are laid out. A database seeded under an earlier layout (2: packed facets, name
 * and LinkedIn lookups on gsi3; 3: the company lookup facet; 4: people by their employer's name on
 * gsi1; 5: funds carry their portfolio) is seeded again: the marker then reads as absent.
 */
export const CURATED_LAYOUT = 5;

export interface SeedMarker {
  layout: number;
  seed: number;
  scale: number;
  counts: Record<string, number>;
  items: number;
  seededAt: string;
}

/** The one item that says which dataset the table holds. */
const seedMarkers = defineEntity<{ marker: SeedMarker }>()({
  name: 'curatedSeed',
  key: () => curatedSeedMarkerKey(),
});

export async function getSeedMarker(): Promise<SeedMarker | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: curatedSeedMarkerKey() }));
  const marker = seedMarkers.maybe(Item)?.marker;
  return marker?.layout === CURATED_LAYOUT ? marker : undefined;
}

export async function putSeedMarker(marker: SeedMarker): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: seedMarkers.item({ marker }) }));
}
