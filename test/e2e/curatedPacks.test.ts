import { beforeAll, describe, expect, it, vi } from 'vitest';
import { importCuratedRecords } from '#bin/curated/importer';
import { seedCuratedDataset } from '#bin/curated/seed';
import { DEFAULT_SEED, generateDataset } from '#bin/curated/generator';
import { gzipSync } from 'node:zlib';
import { CURATED_LAYOUT, facetCopies, facetPacks, facetRemovals } from '#shared/store/curatedItems';
import {
  findByName,
  forgetCachedFacets,
  getCuratedEntity,
  getPersonByLinkedinUrl,
  getSeedMarker,
  listKolsInSector,
  listPeopleByCompany,
  listPeopleByCompanyName,
} from '#shared/store/curatedReads';
import { putCuratedEntities, putCuratedItems, putSeedMarker } from '#shared/store/curatedWrites';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { queryAll } from '#shared/store/query';
import { curatedFacetPackKey, curatedFacetPartition, PERSON_TEAM_FACET } from '#shared/store/keys';
import { useOwnTable } from '#test/support/ownTable';

/*
 * The seed packs facet copies into few items; imports write single-entity items that take
 * precedence. On a table of its own, as it re-seeds and replaces seeded records.
 */
beforeAll(async () => {
  await useOwnTable('outreach-packs');
});

const kolsIn = (sector: 'defi' | 'gaming', scale: number) =>
  generateDataset({ seed: DEFAULT_SEED, scale })
    .kols.filter((k) => k.sectors.includes(sector))
    .map((k) => k.id)
    .sort();

describe('packed facet copies', () => {
  it('store a whole facet in few items and read back every member, in id order', async () => {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': curatedFacetPartition('KOL_SECTOR', 'defi') },
    });
    const expected = kolsIn('defi', 0.01);
    expect(items.length).toBeLessThan(expected.length);
    expect((await listKolsInSector('defi')).map((k) => k.id)).toEqual(expected);
  });

  it('an import replacing a seeded record moves it between facets: the pack copy is hidden, the new one shown once', async () => {
    const seeded = (await listKolsInSector('defi')).find((k) => !k.sectors.includes('gaming'))!;
    const { id, name, handle, platform, followers, gmScore, smarts, xBioLabel, xBioReason, location } = seeded;
    const outcome = await importCuratedRecords(
      JSON.stringify({
        kind: 'kol',
        id,
        name,
        handle,
        platform,
        followers,
        gmScore,
        smarts,
        xBioLabel,
        xBioReason,
        location,
        sectors: ['gaming'],
      }),
    );
    expect(outcome.ok).toBe(true);
    expect((await listKolsInSector('defi')).map((k) => k.id)).not.toContain(id);
    const gaming = (await listKolsInSector('gaming')).filter((k) => k.id === id);
    expect(gaming).toHaveLength(1);
    expect(gaming[0].sectors).toEqual(['gaming']);
  });

  it('a re-seed of a smaller dataset leaves no pack of the larger one behind', async () => {
    // Small packs, so the larger dataset needs more of them than the smaller one.
    await seedCuratedDataset({ scale: 0.03, force: true, packBytes: 2_000 });
    forgetCachedFacets();
    const larger = (await listKolsInSector('defi')).length;
    await seedCuratedDataset({ scale: 0.01, force: true, packBytes: 2_000 });
    forgetCachedFacets();
    const smaller = (await listKolsInSector('defi')).map((k) => k.id);
    expect(larger).toBeGreaterThan(smaller.length);
    // The record the import above moved out of defi stays out (imports win over a re-seed).
    expect(smaller.length).toBe(kolsIn('defi', 0.01).length - 1);
  });

  it('finds companies, funds and people by name and LinkedIn through the lookup facets', async () => {
    const data = generateDataset({ seed: DEFAULT_SEED, scale: 0.01 });
    const company = data.companies[0];
    expect(await findByName('company', company.name.toUpperCase())).toContainEqual({
      id: company.id,
      name: company.name,
      domain: company.domain,
    });
    expect((await findByName('fund', data.funds[0].name)).map((f) => f.id)).toContain(data.funds[0].id);
    const person = data.people.find((p) => p.linkedinUrl)!;
    expect(await getPersonByLinkedinUrl(person.linkedinUrl!)).toMatchObject({ id: person.id });
  });

  /**
   * Records the commands this process sends while `call` runs (other work in the file may send its own, so they are
   * named): those on partitions under `prefix` (by default the people by employer's name), and batches.
   */
  async function withSentCommands<T>(
    sent: string[],
    call: () => Promise<T>,
    prefix = curatedFacetPartition(PERSON_TEAM_FACET, ''),
  ): Promise<T> {
    const client = ddb();
    const send = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: {
      constructor: { name: string };
      input: { ExpressionAttributeValues?: Record<string, unknown>; RequestItems?: unknown };
    }) => {
      const pk = String(command.input.ExpressionAttributeValues?.[':pk'] ?? '');
      if (pk.startsWith(prefix) || command.input.RequestItems)
        sent.push(command.constructor.name.replace(/Command$/, ''));
      return send(command as never);
    }) as never);
    try {
      return await call();
    } finally {
      spy.mockRestore();
    }
  }

  it('reads the people of a company by its name from one lookup bucket and no shard, the same people as the company lookup then its people', async () => {
    const data = generateDataset({ seed: DEFAULT_SEED, scale: 0.01 });
    const staffed = data.companies.filter((c) => data.people.some((p) => p.companyId === c.id)).slice(0, 5);
    expect(staffed.length).toBeGreaterThan(0);
    for (const company of staffed) {
      const viaLookup = (
        await Promise.all((await findByName('company', company.name)).map((c) => listPeopleByCompany(c.id)))
      ).flat();
      forgetCachedFacets();
      const sent: string[] = [];
      const viaName = await withSentCommands(sent, () => listPeopleByCompanyName(`  ${company.name.toUpperCase()} `));
      expect(sent).toEqual(['Query']);
      expect(viaName.map((p) => p.id)).toEqual(viaLookup.map((p) => p.id));
      expect(viaName.length).toBeGreaterThan(0);
      // The bucket is kept for FACET_CACHE_MS, as the facets are: the next lookup sends nothing.
      const again: string[] = [];
      await withSentCommands(again, () => listPeopleByCompanyName(company.name));
      expect(again).toEqual([]);
    }
    // People at a fund are not people at a company of the same name.
    const fundStaff = data.people.find((p) => p.organizationKind === 'fund');
    if (fundStaff)
      expect((await listPeopleByCompanyName(fundStaff.companyName)).filter((p) => p.id === fundStaff.id)).toEqual([]);
  });

  it('seeds again a database seeded under an earlier layout', async () => {
    const current = (await getSeedMarker())!;
    await putSeedMarker({ ...current, layout: CURATED_LAYOUT - 1 });
    // An earlier layout's pack (its copies as text) past the packs this layout writes.
    const oldPack = curatedFacetPackKey('KOL_SECTOR', 'defi', 999);
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: { ...oldPack, entity: 'curatedFacetPack', data: '[{"id":"kol-old"}]' },
      }),
    );
    forgetCachedFacets();
    expect((await listKolsInSector('defi')).map((k) => k.id)).not.toContain('kol-old');
    expect(await getSeedMarker()).toBeUndefined();
    const again = await seedCuratedDataset({ scale: 0.01 });
    expect(again.skipped).toBe(false);
    expect(await getSeedMarker()).toMatchObject({ layout: CURATED_LAYOUT });
    expect((await ddb().send(new GetCommand({ TableName: table(), Key: oldPack }))).Item).toBeUndefined();
  });

  it('a re-seed over the shards of layout 6 writes the lookup copies of the profiles imported there', async () => {
    // As layout 6 left an imported person: the profile in its shard, no whole copy under the people's lookups.
    const seeded = generateDataset({ seed: DEFAULT_SEED, scale: 0.01 }).people.find(
      (p) => p.organizationKind === 'company',
    )!;
    const person = { ...seeded, id: 'per-carried-over', linkedinUrl: 'https://linkedin.com/in/carried-over-1' };
    await putCuratedEntities([person]);
    const current = (await getSeedMarker())!;
    await putSeedMarker({ ...current, layout: 6 });
    forgetCachedFacets();
    expect((await listPeopleByCompany(person.companyId)).map((p) => p.id)).not.toContain(person.id);
    expect(await seedCuratedDataset({ scale: 0.01 })).toMatchObject({ skipped: false });
    forgetCachedFacets();
    expect((await listPeopleByCompany(person.companyId)).map((p) => p.id)).toContain(person.id);
    expect((await listPeopleByCompanyName(person.companyName)).map((p) => p.id)).toContain(person.id);
    expect(await getPersonByLinkedinUrl(person.linkedinUrl)).toEqual(person);
  });
  /** Layout 6's people lookups: references (id, employer, slugs) in 128 buckets of one facet, which layout 7 never reads. */
  const LAYOUT_6_PERSON_LOOKUP = 'PERSON_LOOKUP';
  const layout6Bucket = (bucket: number) => curatedFacetPartition(LAYOUT_6_PERSON_LOOKUP, String(bucket));
  const LAYOUT_6_PREFIX = curatedFacetPartition(LAYOUT_6_PERSON_LOOKUP, '');
  const storedIn = async (pk: string) =>
    queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });

  it('a re-seed over layout 6 deletes the people lookups only layout 6 wrote, keeping the profiles imported there', async () => {
    const seeded = generateDataset({ seed: DEFAULT_SEED, scale: 0.01 }).people.find(
      (p) => p.organizationKind === 'company',
    )!;
    const person = { ...seeded, id: 'per-imported-under-6', linkedinUrl: 'https://linkedin.com/in/imported-under-6' };
    await putCuratedEntities([person]);
    // What layout 6 left in its lookup buckets (the first, a middle and the last): a seed pack, an import's copy, a removal.
    const ref = { id: person.id, companyId: person.companyId, linkedin: 'imported-under-6' };
    const buckets = [0, 63, 127];
    await putCuratedItems(
      buckets.flatMap((bucket) => [
        facetPacks.item({
          facet: LAYOUT_6_PERSON_LOOKUP,
          value: String(bucket),
          index: 0,
          data: gzipSync(JSON.stringify([ref])),
        }),
        facetCopies.item({
          facet: LAYOUT_6_PERSON_LOOKUP,
          value: String(bucket),
          kind: 'person',
          id: person.id,
          data: JSON.stringify(ref),
        }),
        facetRemovals.item({ pk: layout6Bucket(bucket), sk: 'PERSON#per-gone', data: '{}' }),
      ]),
    );
    for (const bucket of buckets) expect(await storedIn(layout6Bucket(bucket))).toHaveLength(3);
    const current = (await getSeedMarker())!;
    await putSeedMarker({ ...current, layout: 6 });
    const sent: string[] = [];
    const outcome = await withSentCommands(sent, () => seedCuratedDataset({ scale: 0.01 }), LAYOUT_6_PREFIX);
    expect(outcome).toMatchObject({ skipped: false });
    for (const bucket of buckets) expect(await storedIn(layout6Bucket(bucket))).toEqual([]);
    // One Query for each of layout 6's buckets, known by name (no Scan).
    expect(sent.filter((c) => c === 'Query')).toHaveLength(128);
    forgetCachedFacets();
    expect(await getCuratedEntity('person', person.id)).toEqual(person);
    expect((await listPeopleByCompany(person.companyId)).map((p) => p.id)).toContain(person.id);
    expect(await getPersonByLinkedinUrl(person.linkedinUrl)).toEqual(person);
  });

  it('a re-seed at this layout sends no Query to the people lookups of layout 6', async () => {
    expect(await getSeedMarker()).toMatchObject({ layout: CURATED_LAYOUT });
    const sent: string[] = [];
    await withSentCommands(sent, () => seedCuratedDataset({ scale: 0.01, force: true }), LAYOUT_6_PREFIX);
    expect(sent).not.toContain('Query');
  });
});
