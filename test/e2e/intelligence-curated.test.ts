import { describe, expect, it } from 'vitest';
import {
  getCompanyByDomain,
  getPersonByLinkedinUrl,
  listPeopleByCompany,
  findByName,
  listFundsInSector,
} from '#shared/store/curatedReads';
import { getSeedMarker } from '#shared/store/curatedReads';

describe('curated dataset in the test table', () => {
  it('is seeded once, with its marker', async () => {
    const marker = await getSeedMarker();
    expect(marker?.counts.funds).toBeGreaterThan(50);
  });

  it('finds a company by domain in any URL form, and its people in the company e-mail pattern', async () => {
    const company = await getCompanyByDomain('https://www.NebulaLabs.io/about');
    expect(company).toMatchObject({ id: 'co-nebula', name: 'Nebula Labs', employeeCount: 42, domain: 'nebulalabs.io' });
    const people = await listPeopleByCompany('co-nebula');
    expect(people).toHaveLength(6);
    expect(
      people
        .filter((p) => p.email)
        .every((p) => p.email === `${p.firstName.toLowerCase()}.${p.lastName.toLowerCase()}@nebulalabs.io`),
    ).toBe(true);
    expect(await getCompanyByDomain('no-such-company.example')).toBeUndefined();
    expect((await getCompanyByDomain('app.nebulalabs.io'))?.id).toBe('co-nebula');
    expect((await getCompanyByDomain('quietprotocol.xyz'))?.employeeCount).toBeNull();
  });

  it('finds a person by LinkedIn URL and companies and funds by name', async () => {
    expect((await getPersonByLinkedinUrl('https://linkedin.com/in/ada-park-1a/'))?.id).toBe('per-nebula-1');
    expect(await getPersonByLinkedinUrl('https://example.com/ada')).toBeUndefined();
    expect((await findByName('fund', 'polaris ventures')).map((f) => f.id)).toEqual(['fund-polaris']);
    expect((await findByName('company', 'NEBULA LABS')).map((c) => c.id)).toEqual(['co-nebula']);
  });

  it('serves the sector index with each fund track record in the sector', async () => {
    const funds = await listFundsInSector('defi');
    const polaris = funds.find((f) => f.id === 'fund-polaris')!;
    expect(polaris.sectorRecord.seed!.led).toBeGreaterThan(0);
    expect(funds.every((f) => f.sectors.includes('defi'))).toBe(true);
  });
});
