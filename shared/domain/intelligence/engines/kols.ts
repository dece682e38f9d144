/** kol-discovery-v1: KOLs in a sector, filtered by reach and quality, ranked by GM Score, smart followers and reach. */
import { PLATFORMS, SECTORS, termLabel, type SectorId } from '#shared/domain/curated/taxonomy';
import type { CuratedKol } from '#shared/domain/curated/model';
import { listKolsInSector } from '#shared/store/curatedReads';
import type { CanonicalSlots } from '#shared/domain/intelligence/slots';
import { compact, inPlace, plural, sentence } from './format';
import { byScore, num, rankedRecord, regionOf, type PackageEngine, type RankedRecord } from './types';

export function rankKols(kols: CuratedKol[], slots: CanonicalSlots): RankedRecord[] {
  const sector = String(slots.sector_focus) as SectorId;
  const minFollowers = num(slots.min_followers) ?? 0;
  const minGm = num(slots.min_gm_score) ?? 0;
  return kols
    .filter((k) => k.followers >= minFollowers && k.gmScore >= minGm)
    .filter((k) => slots.platform === undefined || k.platform === slots.platform)
    .filter((k) => slots.location === undefined || inPlace(k.location, String(slots.location), regionOf))
    .map((k) => {
      const primary = k.sectors[0] === sector;
      const score = k.gmScore / 10 + k.smarts / 5 + Math.log10(Math.max(10, k.followers)) * 8 + (primary ? 10 : 0);
      return rankedRecord(k.id, score, () => {
        const platform = termLabel(PLATFORMS, k.platform);
        const rationale = sentence([
          `${k.xBioLabel}${primary ? `, ${termLabel(SECTORS, sector)} is their main beat` : `, covers ${termLabel(SECTORS, sector)} among ${plural(k.sectors.length, 'sector')}`}`,
          `GM Score ${k.gmScore}${minGm ? ` (your minimum: ${minGm})` : ''} with ${k.smarts} smart followers`,
          `${compact(k.followers)} followers on ${platform}${minFollowers ? ` (above your ${compact(minFollowers)} minimum)` : ''}`,
        ]);
        return {
          name: k.name,
          category: termLabel(SECTORS, k.sectors[0]),
          followers_count: k.followers,
          'GM Score': k.gmScore,
          Smarts: k.smarts,
          X_URL: k.xUrl,
          X_BIO_label: k.xBioLabel,
          X_BIO_reason: k.xBioReason,
          description: k.description,
          intelligence_blurb: `${k.name} (@${k.handle}, ${platform}, ${k.location}): ${k.description} Followed by ${k.smarts} high-signal accounts.`,
          rationale,
        };
      });
    })
    .sort(byScore);
}

export const kolDiscovery: PackageEngine = {
  rank: async (slots) => rankKols(await listKolsInSector(String(slots.sector_focus) as SectorId), slots),
  summary(slots, records, candidates) {
    const sector = termLabel(SECTORS, String(slots.sector_focus));
    if (records.length === 0) return `No ${sector} KOL matches these thresholds.`;
    return `${plural(records.length, `${sector} KOL`)} out of ${candidates} matching, ranked by GM Score, smart followers and reach; ${records[0].fields.name} leads with GM Score ${records[0].fields['GM Score']}.`;
  },
};
