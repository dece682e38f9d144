/**
 * Coverage: how many curated candidates a filled request has against its limit, and
 * when that falls short, the route most likely to get the user what they want.
 */
import { SECTORS, termLabel } from '#shared/domain/curated/taxonomy';
import type { CanonicalSlots } from './slots';
import { plural } from './engines/format';
import { PACKAGES, type PackageDef, type PackageId } from './packages';

export interface AlternativeRoute {
  package_id: string;
  reason: string;
  slots: Record<string, unknown>;
}

export interface Coverage {
  status: 'sufficient' | 'limited' | 'none';
  candidate_count: number;
  note: string | null;
  fallback_allowed: boolean;
  alternative_route: AlternativeRoute | null;
}

export const coverageStatus = (candidates: number, limit: number): Coverage['status'] =>
  candidates >= limit ? 'sufficient' : candidates > 0 ? 'limited' : 'none';

/** Optional slots, most specific first: the order in which relaxing them is suggested. */
export const relaxableSlots = (pkg: PackageDef, slots: CanonicalSlots): string[] =>
  Object.entries(pkg.slots)
    .filter(([name, def]) => !def.required && slots[name] !== undefined)
    .map(([name]) => name)
    .reverse();

/** When a package has nothing to offer, a neighbouring package that can answer a similar question. */
export const NEIGHBOURS: Partial<Record<PackageId, (slots: CanonicalSlots) => AlternativeRoute | null>> = {
  'kol-discovery-v1': (s) => ({
    package_id: 'user-prospect-v1',
    reason: `Engaged community members in ${termLabel(SECTORS, String(s.sector_focus))} can carry a message where KOLs are scarce.`,
    slots: { sector_interest: termLabel(SECTORS, String(s.sector_focus)), limit: s.limit },
  }),
  'warm-intro-paths-v1': (s) =>
    s.sector_focus && s.stage
      ? {
          package_id: 'vc-shortlist-v1',
          reason:
            'Without funding-round evidence for this fund, a shortlist of funds active in the same sector and stage is the next best route.',
          slots: { sector_focus: s.sector_focus, stage: s.stage, limit: s.limit },
        }
      : null,
  'builder-discovery-v1': (s) =>
    s.ecosystem
      ? {
          package_id: 'hackathon-builder-v1',
          reason: 'Hackathon builders in the same ecosystem are a wider pool of proven builders.',
          slots: { ecosystem: s.ecosystem, limit: s.limit },
        }
      : null,
  'hackathon-builder-v1': (s) => ({
    package_id: 'builder-discovery-v1',
    reason: 'Active builders of one type, hackathon record or not.',
    slots: { category: 'smart-contract-engineer', ecosystem: s.ecosystem, limit: s.limit },
  }),
};

export function coverageNote(
  pkg: PackageDef,
  status: Coverage['status'],
  candidates: number,
  limit: number,
): string | null {
  if (status === 'sufficient') return null;
  if (status === 'none')
    return `No ${pkg.recordNoun.many} in the curated data match this request; executing would return nothing.`;
  const one = candidates === 1;
  return `Only ${plural(candidates, pkg.recordNoun.one, pkg.recordNoun.many)} ${one ? 'matches' : 'match'}, fewer than the ${limit} asked for; execute returns ${candidates} and charges only for ${one ? 'that one' : 'those'}.`;
}

export { PACKAGES };
