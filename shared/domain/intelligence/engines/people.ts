/**
 * company-people-discovery-v1 (the people at one company) and user-prospect-v1 (people engaged in
 * the communities of the sectors an audience description names).
 */
import { ROLE_FAMILIES, SECTORS, termLabel, termsIn, type SectorId } from '#shared/domain/curated/taxonomy';
import type { CuratedPerson } from '#shared/domain/curated/model';
import {
  findByName,
  getCompanyByDomain,
  listPeopleByCompany,
  listPeopleByCompanyName,
  listProspectsInSector,
} from '#shared/store/curatedReads';
import { slotIds, type CanonicalSlots } from '#shared/domain/intelligence/slots';
import { inPlace, listOf, plural, sentence } from './format';
import { byScore, rankedRecord, regionOf, str, type PackageEngine, type RankedRecord } from './types';

const SENIOR = /\b(ceo|cto|coo|cfo|cmo|founder|co-founder|president|head|chief|general partner|director|lead)\b/i;

const isFamily = (id: string) => ROLE_FAMILIES.some((f) => f.id === id);
/** Role family ids a role slot holds ("engineering, product"); none for a title word. */
const familiesOf = (role: string) => {
  const ids = slotIds(role);
  return ids.length > 0 && ids.every(isFamily) ? ids : [];
};

/**
 * A role slot holds role family ids. Results stored before role slots were matched against the
 * taxonomy may hold a title word instead; an increase_limit of those still matches it in the title.
 */
function roleMatches(person: CuratedPerson, role: string | undefined): boolean {
  if (!role) return true;
  const families = familiesOf(role);
  return families.length ? families.includes(person.roleFamily) : person.role.toLowerCase().includes(role);
}
const roleName = (role: string) => {
  const families = familiesOf(role);
  return families.length ? listOf(families.map((f) => termLabel(ROLE_FAMILIES, f).toLowerCase())) : `"${role}"`;
};

const personFields = (p: CuratedPerson, rationale: string, blurb: string) => ({
  name: p.fullName,
  company_name: p.companyName,
  person_role: p.role,
  category: termLabel(ROLE_FAMILIES, p.roleFamily),
  location: p.location,
  description: p.bio,
  intelligence_blurb: blurb,
  rationale,
});

// ---- company-people-discovery-v1 -----------------------------------------------------------------

export function rankCompanyPeople(people: CuratedPerson[], slots: CanonicalSlots): RankedRecord[] {
  const role = str(slots.role_focus);
  return people
    .filter(
      (p) =>
        roleMatches(p, role) && (slots.location === undefined || inPlace(p.location, String(slots.location), regionOf)),
    )
    .map((p) => {
      const senior = SENIOR.test(p.role);
      const score =
        (p.roleFamily === 'leadership' ? 10 : 0) +
        (senior ? 6 : 0) +
        (role ? 10 : 0) +
        p.engagementScore * 4 +
        (p.sinceYear <= 2022 ? 2 : 0);
      return rankedRecord(p.id, score, () => {
        const rationale = sentence([
          `${p.role} at ${p.companyName} since ${p.sinceYear}`,
          role
            ? `in ${termLabel(ROLE_FAMILIES, p.roleFamily).toLowerCase()}, matching your ${roleName(role)} focus`
            : senior
              ? 'a decision maker'
              : `works in ${termLabel(ROLE_FAMILIES, p.roleFamily).toLowerCase()}`,
          `based in ${p.location}`,
        ]);
        const blurb = `${p.fullName} is ${p.role} at ${p.companyName} (${p.companyDomain}). ${p.bio}`;
        return personFields(p, rationale, blurb);
      });
    })
    .sort(byScore);
}

/** Companies named like the slot (exact name first, then a domain). */
async function peopleAtCompany(name: string): Promise<CuratedPerson[]> {
  // One Query in the common case; the company lookups below only when nobody works at a company of that name.
  const team = await listPeopleByCompanyName(name);
  if (team.length) return team;
  const byName = await findByName('company', name);
  const ids = byName.length
    ? byName.map((c) => c.id)
    : [(await getCompanyByDomain(name))?.id].filter((id): id is string => !!id);
  return (await Promise.all(ids.map(listPeopleByCompany))).flat();
}

export const companyPeople: PackageEngine = {
  rank: async (slots) => rankCompanyPeople(await peopleAtCompany(String(slots.company_name)), slots),
  summary(slots, records, candidates) {
    if (records.length === 0) return `No one at ${slots.company_name} is in the dataset with these filters.`;
    return `${plural(records.length, 'person', 'people')} at ${records[0].fields.company_name} out of ${candidates} on record, decision makers${slots.role_focus ? ' in your role focus' : ''} first; ${records[0].fields.name} (${records[0].fields.person_role}) leads.`;
  },
};

// ---- user-prospect-v1 ----------------------------------------------------------------------------

export const audienceSectors = (audience: string): SectorId[] => termsIn(SECTORS, audience).map((s) => s.id);

export function rankProspects(people: CuratedPerson[], slots: CanonicalSlots): RankedRecord[] {
  const sectors = audienceSectors(String(slots.sector_interest));
  const role = str(slots.role_filter);
  const minEngagement =
    typeof slots.min_engagement === 'number'
      ? slots.min_engagement > 1
        ? slots.min_engagement / 100
        : slots.min_engagement
      : 0;
  const unique = [...new Map(people.map((p) => [p.id, p])).values()];
  return unique
    .filter((p) => p.engagementScore >= minEngagement && roleMatches(p, role))
    .filter((p) => slots.location === undefined || inPlace(p.location, String(slots.location), regionOf))
    .map((p) => {
      const shared = p.interests.filter((s) => sectors.includes(s));
      const score =
        40 * p.engagementScore +
        8 * shared.length +
        (p.roleFamily === 'community' || p.roleFamily === 'leadership' ? 4 : 0);
      return rankedRecord(p.id, score, () => {
        const interests = listOf(shared.map((s) => termLabel(SECTORS, s)));
        const rationale = sentence([
          `engagement ${p.engagementScore.toFixed(2)} in ${interests} communities${minEngagement ? ` (your minimum: ${minEngagement})` : ''}`,
          `${p.role} at ${p.companyName}`,
          `based in ${p.location}`,
        ]);
        const blurb = `${p.fullName} follows ${listOf(p.interests.map((s) => termLabel(SECTORS, s)))} and works as ${p.role} at ${p.companyName}. ${p.bio}`;
        return personFields(p, rationale, blurb);
      });
    })
    .sort(byScore);
}

export const userProspects: PackageEngine = {
  rank: async (slots) =>
    rankProspects(
      (await Promise.all(audienceSectors(String(slots.sector_interest)).map(listProspectsInSector))).flat(),
      slots,
    ),
  summary(slots, records, candidates) {
    if (records.length === 0) return `No community prospect matches "${slots.sector_interest}" with these filters.`;
    return `${plural(records.length, 'prospect')} for "${slots.sector_interest}" out of ${candidates} matching, most engaged first; ${records[0].fields.name} (${records[0].fields.person_role} at ${records[0].fields.company_name}) leads.`;
  },
};
