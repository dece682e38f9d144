import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '#bin/curated/generator';
import { curatedItemsFor, packedCuratedItems } from '#shared/domain/curated/copies';
import { linkedinSlug, shardEntriesOf } from '#shared/store/curatedItems';
import type { CuratedEntity, CuratedKol } from '#shared/domain/curated/model';
import { normaliseDomain } from '#shared/hostNames';
import {
  COMPANY_DOMAIN_FACET,
  companyDomainBucket,
  curatedFacetKey,
  curatedFacetPackKey,
  curatedFacetPartition,
  curatedShardKey,
  curatedShardOf,
  PERSON_EMPLOYER_FACET,
  PERSON_LINKEDIN_FACET,
  PERSON_TEAM_FACET,
  personEmployerBucket,
  personLinkedinBucket,
  personTeamBucket,
} from '#shared/store/keys';
import { slugOf } from '#shared/slugs';

const kol: CuratedKol = {
  kind: 'kol',
  id: 'kol-1',
  name: 'Ada Park',
  handle: 'adapark',
  platform: 'x',
  followers: 1200,
  gmScore: 640,
  smarts: 12,
  xBioLabel: 'builder',
  xBioReason: 'ships',
  sectors: ['defi', 'gaming'],
  location: 'Lisbon',
  description: 'Writes about DeFi.',
  email: null,
  linkedinUrl: null,
  xUrl: 'https://x.com/adapark',
  telegramHandle: null,
  phone: null,
  githubUrl: null,
};

/** The curated dataset's layout: profiles packed into shards by id, facet copies packed by facet value. */
describe('curated items', () => {
  it('an import writes an entity as one facet copy per sector; its profile goes into its shard', () => {
    const data = JSON.stringify(kol);
    expect(curatedItemsFor(kol)).toStrictEqual([
      { ...curatedFacetKey('KOL_SECTOR', 'defi', 'kol', 'kol-1'), entity: 'curatedFacet', data },
      { ...curatedFacetKey('KOL_SECTOR', 'gaming', 'kol', 'kol-1'), entity: 'curatedFacet', data },
    ]);
  });

  it('a seed writes the profile into the shard its id hashes to, then packs the facet copies (gzipped)', () => {
    const data = JSON.stringify(kol);
    const [shard, ...packs] = packedCuratedItems([kol]);
    expect(shard).toMatchObject({
      ...curatedShardKey('kol', curatedShardOf('kol', 'kol-1')),
      entity: 'curatedShard',
      version: expect.any(String),
    });
    expect(Object.keys(shard).sort()).toEqual(['data', 'entity', 'pk', 'sk', 'version']);
    expect([...shardEntriesOf(shard)]).toStrictEqual([['kol-1', { entity: kol }]]);
    // Each pack: the JSON array of its copies, gzipped.
    expect(
      packs.map(({ data: packed, ...rest }) => ({ ...rest, data: gunzipSync(packed as Uint8Array).toString() })),
    ).toStrictEqual([
      { ...curatedFacetPackKey('KOL_SECTOR', 'defi', 0), entity: 'curatedFacetPack', data: `[${data}]` },
      { ...curatedFacetPackKey('KOL_SECTOR', 'gaming', 0), entity: 'curatedFacetPack', data: `[${data}]` },
    ]);
  });

  it('the whole dataset is at most 1,500 items, each well under 400 KB, and every profile is in its shard', () => {
    const data = generateDataset({ seed: 1, scale: 1 });
    const entities: CuratedEntity[] = [
      ...data.funds,
      ...data.companies,
      ...data.people,
      ...data.kols,
      ...data.builders,
    ];
    const items = packedCuratedItems(entities);
    expect(items.length).toBeLessThanOrEqual(1_500);
    // Beside the shards, the facets and lookups in few packs (whole copies: people's lookups in 96 + 96 + 48 buckets,
    // companies by domain in 48).
    expect(items.filter((i) => i.entity !== 'curatedShard').length).toBeLessThan(400);
    const size = (item: Record<string, unknown>) =>
      Object.entries(item).reduce(
        (sum, [name, value]) =>
          sum + name.length + (value instanceof Uint8Array ? value.byteLength : Buffer.byteLength(String(value))),
        0,
      );
    expect(Math.max(...items.map(size))).toBeLessThan(350_000);
    const shards = new Map(items.filter((i) => i.entity === 'curatedShard').map((i) => [`${i.pk}`, shardEntriesOf(i)]));
    for (const e of entities) {
      const shard = shards.get(curatedShardKey(e.kind, curatedShardOf(e.kind, e.id)).pk);
      expect(shard?.get(e.id)?.entity).toEqual(e);
    }
    // A person is found by employer, employer's name and LinkedIn as a whole copy in each lookup's bucket.
    const person = data.people.find((p) => p.organizationKind === 'company' && p.linkedinUrl)!;
    const packed = (pk: string) =>
      items
        .filter((i) => i.pk === pk && i.entity === 'curatedFacetPack')
        .flatMap((i) => JSON.parse(gunzipSync(i.data as Uint8Array).toString()) as CuratedEntity[]);
    for (const pk of [
      curatedFacetPartition(PERSON_EMPLOYER_FACET, personEmployerBucket(person.companyId)),
      curatedFacetPartition(PERSON_TEAM_FACET, personTeamBucket(slugOf(person.companyName))),
      curatedFacetPartition(PERSON_LINKEDIN_FACET, personLinkedinBucket(linkedinSlug(person.linkedinUrl!)!)),
    ])
      expect(packed(pk)).toContainEqual(person);
    // A company is found by domain as a whole copy too.
    const company = data.companies[0];
    expect(
      packed(curatedFacetPartition(COMPANY_DOMAIN_FACET, companyDomainBucket(normaliseDomain(company.domain)!))),
    ).toContainEqual(company);
  });
});
