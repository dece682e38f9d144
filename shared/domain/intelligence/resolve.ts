/** POST /intelligence/resolve: slots from explicit values and request_text, clarification, coverage. */
import { ValidationError } from '#shared/domain/errors';
import { findByName, getCompanyByDomain } from '#shared/store/curatedReads';
import { ENGINES } from './engines';
import {
  NEIGHBOURS,
  coverageNote,
  coverageStatus,
  relaxableSlots,
  type AlternativeRoute,
  type Coverage,
} from './coverage';
import { PACKAGES, type PackageDef, type PackageId } from './packages';
import { parseRequestText } from './requestText';
import { checkSlots, type CanonicalSlots } from './slots';

export interface ResolveInput {
  package_id: PackageId;
  slots?: Record<string, unknown>;
  request_text?: string;
}

/** How many candidates the curated data has for these slots (the ranking's length). */
export const countCandidates = async (packageId: PackageId, slots: CanonicalSlots): Promise<number> =>
  (await ENGINES[packageId].rank(slots)).length;

/**
 * A way to more results: first drop the optional filters one at a time (most specific first) while
 * that reaches the limit, then a neighbouring package.
 */
async function alternativeRoute(packageId: PackageId, slots: CanonicalSlots): Promise<AlternativeRoute | null> {
  const pkg: PackageDef = PACKAGES[packageId];
  const limit = Number(slots.limit);
  let relaxed = { ...slots };
  const dropped: string[] = [];
  for (const name of relaxableSlots(pkg, slots)) {
    const { [name]: _gone, ...rest } = relaxed;
    relaxed = rest;
    dropped.push(`${name} (${slots[name]})`);
    const count = await countCandidates(packageId, relaxed);
    if (count >= limit)
      return {
        package_id: packageId,
        reason: `Without ${dropped.join(' and ')} there are ${count} candidates.`,
        slots: relaxed,
      };
  }
  return NEIGHBOURS[packageId]?.(slots) ?? null;
}

/** Name-based packages: when nothing matches, say whether the name itself is unknown. */
const NAMED_SLOTS: Partial<Record<PackageId, { slot: string; kind: 'fund' | 'company' }>> = {
  'warm-intro-paths-v1': { slot: 'target_fund_name', kind: 'fund' },
  'company-people-discovery-v1': { slot: 'company_name', kind: 'company' },
};

async function unknownNameNote(packageId: PackageId, slots: CanonicalSlots): Promise<string | null> {
  const named = NAMED_SLOTS[packageId];
  if (!named) return null;
  const name = String(slots[named.slot]);
  const known =
    (await findByName(named.kind, name)).length > 0 || (named.kind === 'company' && !!(await getCompanyByDomain(name)));
  return known
    ? null
    : `No ${named.kind} named "${name}" is in the curated data; check the spelling or use the exact name.`;
}

export async function coverageFor(packageId: PackageId, slots: CanonicalSlots): Promise<Coverage> {
  const pkg: PackageDef = PACKAGES[packageId];
  const limit = Number(slots.limit);
  const candidates = await countCandidates(packageId, slots);
  const status = coverageStatus(candidates, limit);
  return {
    status,
    candidate_count: candidates,
    note:
      (status === 'none' ? await unknownNameNote(packageId, slots) : null) ??
      coverageNote(pkg, status, candidates, limit),
    fallback_allowed: status !== 'none',
    alternative_route: status === 'sufficient' ? null : await alternativeRoute(packageId, slots),
  };
}

export async function resolveIntent(input: ResolveInput) {
  const pkg: PackageDef = PACKAGES[input.package_id];
  const explicit = input.slots ?? {};
  const parsed = input.request_text ? parseRequestText(pkg, input.request_text) : {};
  // Explicit slots win; parsed values fill only what was not given.
  const explicitCheck = checkSlots(pkg, explicit);
  if (explicitCheck.issues.length) throw new ValidationError('Some slots are invalid.', explicitCheck.issues);
  const merged = checkSlots(pkg, { ...parsed, ...explicit });
  // A word the taxonomy does not know (or that names several terms where one is needed) is asked
  // about again, with the nearest values: resolve is where a request gets clarified, quote refuses.
  const unclear = new Map(merged.misunderstood.map((i) => [i.path.replace(/^slots\./, ''), i.suggestions ?? []]));
  const missing = Object.entries(pkg.slots)
    .filter(([name, def]) => def.required && merged.slots[name] === undefined)
    .map(([name]) => name);
  const questions = [...new Set([...missing, ...unclear.keys()])].map((name) => {
    const suggestions = unclear.get(name);
    if (!suggestions) return pkg.slots[name].question;
    const said = String(Object.hasOwn(explicit, name) ? explicit[name] : parsed[name]);
    return `${pkg.slots[name].question} ("${said}" is not a value we know${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : '.'})`;
  });
  const ready = missing.length === 0 && unclear.size === 0;
  return {
    intent_status: ready ? ('ready_for_quote' as const) : ('needs_clarification' as const),
    package_id: pkg.id,
    package_name: pkg.name,
    missing_slots: missing,
    clarification_questions: questions,
    filled_slots: merged.slots,
    coverage: ready ? await coverageFor(input.package_id, merged.slots) : null,
  };
}
