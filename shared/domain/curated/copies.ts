/**
 * What the curated dataset stores of each entity beside its profile: its copies under the facets its
 * packages filter on (a fund's with its record in each sector) and under the lookups that find it by a
 * key other than its id (funds, and companies by name, as references; people, and companies by domain,
 * whole). The store keeps them
 * (shared/store/curatedWrites.ts); the seed and the importer (bin/curated) write them through here.
 */
import {
  BUILDER_CATEGORY_FACET,
  COMPANY_DOMAIN_FACET,
  COMPANY_LOOKUP_FACET,
  companyDomainBucket,
  companyLookupDomainBucket,
  companyLookupNameBucket,
  FUND_LOOKUP_FACET,
  fundLookupNameBucket,
  PERSON_EMPLOYER_FACET,
  PERSON_LINKEDIN_FACET,
  PERSON_TEAM_FACET,
  personEmployerBucket,
  personLinkedinBucket,
  personTeamBucket,
} from '#shared/store/keys';
import {
  type CompanyRef,
  type CuratedItem,
  companyDomainKey,
  linkedinSlug,
  type NamedRef,
  teamOf,
} from '#shared/store/curatedItems';
import { type FacetEntry, facetCopyItems, packCuratedItems } from '#shared/store/curatedWrites';
import { slugOf } from '#shared/slugs';
import { fundProfileStats, sectorRecord } from './fundStats';
import { type CuratedEntity, DATASET_AS_OF } from './model';
import { portfolioOf } from './portfolio';

/** The copies of one entity its packages' facets and lookups hold. */
export function facetEntriesFor(entity: CuratedEntity): FacetEntry[] {
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
      const slug = slugOf(entity.name);
      const ref: NamedRef = { id: entity.id, name: entity.name, domain: entity.domain };
      return [
        ...entity.sectors.map((s) =>
          entry('FUND_SECTOR', s, {
            ...summary,
            roundCount: rounds.length,
            ...fundProfileStats(entity),
            sectorRecord: sectorRecord(entity, s, DATASET_AS_OF),
          }),
        ),
        ...(slug ? [entry(FUND_LOOKUP_FACET, fundLookupNameBucket(slug), ref)] : []),
      ];
    }
    case 'company': {
      const ref: CompanyRef = { id: entity.id, name: entity.name, domain: entity.domain };
      const buckets = new Set([
        companyLookupDomainBucket(companyDomainKey(entity)),
        companyLookupNameBucket(slugOf(entity.name)),
      ]);
      return [
        ...[...buckets].map((bucket) => entry(COMPANY_LOOKUP_FACET, bucket, ref)),
        entry(COMPANY_DOMAIN_FACET, companyDomainBucket(companyDomainKey(entity)), entity),
      ];
    }
    case 'person': {
      const team = teamOf(entity);
      const linkedin = entity.linkedinUrl ? linkedinSlug(entity.linkedinUrl) : undefined;
      return [
        ...entity.interests.map((s) => entry('PROSPECT_SECTOR', s, entity)),
        entry(PERSON_EMPLOYER_FACET, personEmployerBucket(entity.companyId), entity),
        ...(team ? [entry(PERSON_TEAM_FACET, personTeamBucket(team), entity)] : []),
        ...(linkedin ? [entry(PERSON_LINKEDIN_FACET, personLinkedinBucket(linkedin), entity)] : []),
      ];
    }
    case 'kol':
      return entity.sectors.map((s) => entry('KOL_SECTOR', s, entity));
    case 'builder':
      return [
        ...entity.ecosystems.map((e) => entry('BUILDER_ECOSYSTEM', e, entity)),
        entry(BUILDER_CATEGORY_FACET, entity.category, entity),
      ];
  }
}

/**
 * The facet and lookup items of one entity on its own (an import; its profile goes into its shard,
 * putCuratedEntities).
 */
export function curatedItemsFor(entity: CuratedEntity): CuratedItem[] {
  return facetCopyItems(facetEntriesFor(entity));
}

/**
 * The items of a whole dataset (the seed): the profiles in their shards (a fund with its portfolio),
 * then the facet copies packed into few items per facet value.
 */
export function packedCuratedItems(entities: CuratedEntity[], packBytes?: number): CuratedItem[] {
  const byId = new Map(entities.map((e) => [e.id, e]));
  const entity = (id: string) => byId.get(id);
  return packCuratedItems(
    entities.map((e) => (e.kind === 'fund' ? { entity: e, portfolio: portfolioOf(e, entity) } : { entity: e })),
    entities.flatMap(facetEntriesFor),
    packBytes,
  );
}
