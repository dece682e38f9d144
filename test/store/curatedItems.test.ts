import { describe, expect, it } from 'vitest';
import { curatedItemsFor, packedCuratedItems, type CuratedKol } from '#shared/store/curatedRepo';
import { curatedFacetKey, curatedFacetPackKey, curatedProfileKey } from '#shared/store/keys';

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

/** Curated items stay as earlier seeds wrote them: a re-seed is not needed to read them. */
describe('curated items', () => {
  it('an entity is a profile item and one facet copy per sector, with exactly their former attributes', () => {
    const data = JSON.stringify(kol);
    expect(curatedItemsFor(kol)).toStrictEqual([
      { ...curatedProfileKey('kol', 'kol-1'), entity: 'curated', kind: 'kol', data },
      { ...curatedFacetKey('KOL_SECTOR', 'defi', 'kol', 'kol-1'), entity: 'curatedFacet', data },
      { ...curatedFacetKey('KOL_SECTOR', 'gaming', 'kol', 'kol-1'), entity: 'curatedFacet', data },
    ]);
  });

  it('a seed writes the profile, then packs the facet copies: one pack item per sector holding the JSON array', () => {
    const data = JSON.stringify(kol);
    expect(packedCuratedItems([kol])).toStrictEqual([
      { ...curatedProfileKey('kol', 'kol-1'), entity: 'curated', kind: 'kol', data },
      { ...curatedFacetPackKey('KOL_SECTOR', 'defi', 0), entity: 'curatedFacetPack', data: `[${data}]` },
      { ...curatedFacetPackKey('KOL_SECTOR', 'gaming', 0), entity: 'curatedFacetPack', data: `[${data}]` },
    ]);
  });
});
