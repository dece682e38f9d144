/**
 * builder-discovery-v1 (builders of a type, by recent shipping) and hackathon-builder-v1 (builders in
 * an ecosystem, by hackathon record). Both read the same builder profiles through different indexes.
 */
import { BUILDER_CATEGORIES, ECOSYSTEMS, termLabel } from '#shared/domain/curated/taxonomy';
import { DATASET_AS_OF, type CuratedBuilder } from '#shared/domain/curated/model';
import { listBuildersInCategory, listBuildersInEcosystem } from '#shared/store/curatedReads';
import { slotIds, type CanonicalSlots } from '#shared/domain/intelligence/slots';
import { daysBetween, inPlace, listOf, plural, sentence, usd } from './format';
import { byScore, rankedRecord, regionOf, str, type PackageEngine, type RankedRecord } from './types';

const wantedSkills = (value: unknown): string[] => {
  const text = str(value);
  return text ? text.split(', ').map((s) => s.toLowerCase()) : [];
};
const skillMatches = (b: CuratedBuilder, wanted: string[]) => b.skills.filter((s) => wanted.includes(s.toLowerCase()));

function commonFields(b: CuratedBuilder) {
  const latest = b.hackathons[0];
  return {
    name: b.name,
    category: termLabel(BUILDER_CATEGORIES, b.category),
    skills: b.skills,
    location: b.location,
    description: b.description,
    challenge_name: latest?.challenge ?? null,
    intelligence_blurb:
      `${b.name} (${b.role}${b.companyName && !b.role.includes(b.companyName) ? ` at ${b.companyName}` : ''}) builds on ${listOf(b.ecosystems.map((e) => termLabel(ECOSYSTEMS, e)))}` +
      ` with ${listOf(b.skills.slice(0, 4))}; ${b.commitsLast90d} public commits in the last 90 days` +
      (b.totalHackathonsAttended
        ? ` and ${plural(b.totalHackathonsAttended, 'hackathon')} (${b.totalHackathonsWon} won)`
        : '') +
      '.',
  };
}

// ---- builder-discovery-v1 ------------------------------------------------------------------------

export function rankActiveBuilders(builders: CuratedBuilder[], slots: CanonicalSlots): RankedRecord[] {
  const skills = wantedSkills(slots.skills_focus);
  return builders
    .filter(
      (b) =>
        (slots.ecosystem === undefined || b.ecosystems.includes(slots.ecosystem as never)) &&
        (slots.location === undefined || inPlace(b.location, String(slots.location), regionOf)),
    )
    .filter((b) => skills.length === 0 || skillMatches(b, skills).length > 0)
    .map((b) => {
      const matched = skillMatches(b, skills);
      const idle = daysBetween(b.lastActiveOn, DATASET_AS_OF);
      const score =
        8 * matched.length +
        Math.min(b.commitsLast90d, 500) / 25 +
        (idle <= 30 ? 8 : idle <= 90 ? 4 : 0) +
        5 * b.totalHackathonsWon +
        b.totalHackathonsAttended;
      return rankedRecord(b.id, score, () => {
        const win = b.hackathons.find((h) => h.won);
        const rationale = sentence([
          `${termLabel(BUILDER_CATEGORIES, b.category)}${b.companyName ? ` at ${b.companyName}` : ' (independent)'}`,
          matched.length ? `matches ${listOf(matched)}` : `works in ${listOf(b.skills.slice(0, 3))}`,
          `${b.commitsLast90d} commits in the last 90 days, last active ${idle <= 1 ? 'this week' : `${idle} days ago`}`,
          b.totalHackathonsAttended
            ? `shipped at ${plural(b.totalHackathonsAttended, 'hackathon')}${win ? `, won ${win.hackathon} ${win.year} with ${win.project}` : ''}`
            : null,
          slots.ecosystem !== undefined ? `builds on ${termLabel(ECOSYSTEMS, String(slots.ecosystem))}` : null,
        ]);
        return { ...commonFields(b), person_role: b.role, company_name: b.companyName, rationale };
      });
    })
    .sort(byScore);
}

/** `category` may name several builder types ("developer"); their builders are ranked together. */
const categoriesOf = (slots: CanonicalSlots) => slotIds(slots.category);

export const builderDiscovery: PackageEngine = {
  rank: async (slots) =>
    rankActiveBuilders((await Promise.all(categoriesOf(slots).map(listBuildersInCategory))).flat(), slots),
  summary(slots, records, candidates) {
    const types = categoriesOf(slots).map((c) => termLabel(BUILDER_CATEGORIES, c).toLowerCase());
    const [type, qualifier] = types.length === 1 ? [types[0], ''] : ['builder', ` (${types.join(', ')})`];
    if (records.length === 0) return `No ${type}${qualifier} in the dataset matches these filters.`;
    return `${plural(records.length, `active ${type}`)}${qualifier} out of ${candidates} matching, ranked by recent commits, skills match and hackathon wins; ${records[0].fields.name} leads.`;
  },
};

// ---- hackathon-builder-v1 ------------------------------------------------------------------------

export function rankHackathonBuilders(builders: CuratedBuilder[], slots: CanonicalSlots): RankedRecord[] {
  const skills = wantedSkills(slots.skills);
  const hackathon = str(slots.hackathon_name)?.toLowerCase();
  return builders
    .filter((b) => b.totalHackathonsAttended > 0)
    .filter((b) => slots.location === undefined || inPlace(b.location, String(slots.location), regionOf))
    .filter((b) => skills.length === 0 || skillMatches(b, skills).length > 0)
    .filter((b) => !hackathon || b.hackathons.some((h) => h.hackathon.toLowerCase().includes(hackathon)))
    .map((b) => {
      const matched = skillMatches(b, skills);
      const wins = b.hackathons.filter((h) => h.won);
      const newest = b.hackathons[0]?.year ?? 0;
      const score =
        12 * wins.length +
        b.totalWinningsUsd / 2000 +
        2 * b.totalHackathonsAttended +
        5 * matched.length +
        (newest >= 2026 ? 6 : newest >= 2025 ? 3 : 0);
      return rankedRecord(b.id, score, () => {
        const best = [...wins].sort((x, y) => y.prizeUsd - x.prizeUsd)[0];
        const at = hackathon ? b.hackathons.find((h) => h.hackathon.toLowerCase().includes(hackathon)) : undefined;
        const rationale = sentence([
          wins.length
            ? `won ${wins.length} of ${plural(b.totalHackathonsAttended, 'hackathon')} (${usd(b.totalWinningsUsd)} in prizes), best: ${best.hackathon} ${best.year} with ${best.project} (${best.challenge})`
            : `shipped ${plural(b.totalHackathonsAttended, 'hackathon project')}, latest ${b.hackathons[0].project} at ${b.hackathons[0].hackathon} ${b.hackathons[0].year}`,
          at ? `took part in ${at.hackathon} ${at.year} with ${at.project}` : null,
          matched.length ? `matches ${listOf(matched)}` : null,
          `builds on ${listOf(b.ecosystems.map((e) => termLabel(ECOSYSTEMS, e)))}`,
        ]);
        return {
          ...commonFields(b),
          project_names: [...new Set(b.hackathons.map((h) => h.project))],
          total_hackathons_attended: b.totalHackathonsAttended,
          total_hackathons_won: b.totalHackathonsWon,
          wins: wins.map((h) => ({
            hackathon: h.hackathon,
            year: h.year,
            project: h.project,
            challenge: h.challenge,
            prize_usd: h.prizeUsd,
          })),
          total_winnings: b.totalWinningsUsd,
          rationale,
        };
      });
    })
    .sort(byScore);
}

export const hackathonBuilders: PackageEngine = {
  rank: async (slots) => rankHackathonBuilders(await listBuildersInEcosystem(String(slots.ecosystem)), slots),
  summary(slots, records, candidates) {
    const eco = termLabel(ECOSYSTEMS, String(slots.ecosystem));
    if (records.length === 0) return `No hackathon builder on ${eco} matches these filters.`;
    const winners = records.filter((r) => Number(r.fields.total_hackathons_won) > 0).length;
    return `${plural(records.length, `${eco} hackathon builder`)} out of ${candidates} matching, ranked by wins, prize money and hackathons shipped; ${winners} of ${records.length} have won at least once.`;
  },
};
