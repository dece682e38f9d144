/**
 * The three expansions: what each one selects, what it costs, and the records it produces. Pricing
 * and building are pure given their inputs; quote and expand run the same plan, so a quote is exact
 * and an expand can only come out at or below it.
 */
import { ValidationError } from '#shared/domain/errors';
import {
  DATASET_AS_OF,
  type Contacts,
  type CuratedCompany,
  type CuratedFund,
  type CuratedPerson,
} from '#shared/domain/curated/model';
import { curatedEntityRead } from '#shared/store/curatedReads';
import { putUnlockMemoryItems, unlockMemoryRead, type UnlockMemory } from '#shared/store/intelligenceRepo';
import type { TransactItem } from '#shared/store/transactions';
import { readTogether, type Read } from '#shared/store/batch';
import { expansionParamSchemas, type ExpansionParams } from './expansionParams';
import { parseOrThrowAt } from './validation';
import { CHANNEL_FIELDS, CONTACT_TIERS, type ContactTier, type ExpansionType, type PackageDef } from './packages';
import {
  channelsAt,
  higherTier,
  increaseLimitCredits,
  increaseLimitRecords,
  isAbove,
  networkDepthCredits,
  tierOffered,
  unlockCredits,
} from './pricing';
import { daysBetween } from './engines/format';

export type IntelRecord = Record<string, unknown> & { record_id: string };
type Selection = ExpansionParams['contact_unlock']['selection'];

export function parseExpansionParams<T extends ExpansionType>(
  pkg: PackageDef,
  type: T,
  params: unknown,
  path: string,
): ExpansionParams[T] {
  if (!pkg.expansions.includes(type)) {
    const why =
      type === 'increase_limit' && pkg.id === 'warm-intro-paths-v1'
        ? ' (its routes are bounded by funding-round evidence)'
        : '';
    throw new ValidationError(`${pkg.id} does not offer ${type}${why}.`, [
      { path: 'expansion_type', message: `Available: ${pkg.expansions.join(', ')}` },
    ]);
  }
  const parsed = parseOrThrowAt(expansionParamSchemas[type], params, path) as ExpansionParams[T];
  if (type === 'contact_unlock' && !tierOffered((parsed as ExpansionParams['contact_unlock']).contact_tier, pkg)) {
    throw new ValidationError(
      `${pkg.id} has no ${(parsed as ExpansionParams['contact_unlock']).contact_tier} channel to unlock.`,
      [{ path: `${path}.contact_tier`, message: `Channels of ${pkg.id}: ${pkg.channels.join(', ')}` }],
    );
  }
  return parsed;
}

/** The parent's records a selection picks, in the parent's order. Unknown ids are a 400. */
export function selectRecords(records: IntelRecord[], selection: Selection, path: string): IntelRecord[] {
  if (selection.mode === 'all') return records;
  if (selection.mode === 'top_n') return records.slice(0, selection.n);
  const known = new Set(records.map((r) => r.record_id));
  const unknown = selection.record_ids.filter((id) => !known.has(id));
  if (unknown.length)
    throw new ValidationError(
      'Some record_ids are not in the parent result.',
      unknown.map((id) => ({ path: `${path}.selection.record_ids`, message: `Not in the parent result: ${id}` })),
    );
  const wanted = new Set(selection.record_ids);
  return records.filter((r) => wanted.has(r.record_id));
}

// ---- contact_unlock ----------------------------------------------------------------------------

/** Why a record of an unlock cost what it did (each record's `unlock_charge.reason`). */
export type UnlockReason =
  | 'charged'
  | 'charged_lower_tier'
  | 'no_contact_at_tier'
  | 'already_unlocked'
  | 'same_contact';

export interface UnlockLine {
  recordId: string;
  current: ContactTier | null;
  credits: number;
  /** The tier the credits pay for: the requested one, or the highest below it with a value; null when free. */
  tier: ContactTier | null;
  reason: UnlockReason;
}

interface PricedRecord {
  requested: ContactTier;
  current: ContactTier | null;
  reached: ContactTier | null;
  repeat: boolean;
  credits: number;
}

/** The first reason that holds, in order: a record says why it cost what it did. */
const UNLOCK_REASONS: readonly [UnlockReason, (r: PricedRecord) => boolean][] = [
  ['same_contact', (r) => r.repeat],
  ['already_unlocked', (r) => !isAbove(r.requested, r.current)],
  ['charged', (r) => r.reached === r.requested],
  ['charged_lower_tier', (r) => r.credits > 0],
  ['no_contact_at_tier', () => true],
];
const reasonOf = (r: PricedRecord): UnlockReason => UNLOCK_REASONS.find(([, holds]) => holds(r))?.[0] ?? 'charged';

/**
 * What unlocking `recordIds` at `tier` costs given what the user already unlocked (tier differences only)
 * and what each record's contact holds: a record is charged for the highest tier up to `tier` at which it
 * has a value (`reached`), so one with nothing there costs nothing. Without `reached` (an estimate, which
 * reads no contact data), every record is taken to have a value at `tier`.
 */
export function priceUnlock(
  recordIds: string[],
  tier: ContactTier,
  memory: Record<string, string>,
  /** The person each record's contact is: two records of one person are paid for once. */
  persons: ReadonlyMap<string, string> = new Map(),
  reached?: ReadonlyMap<string, ContactTier | null>,
): { credits: number; lines: UnlockLine[] } {
  const priced = new Set<string>();
  const lines = recordIds.map((recordId): UnlockLine => {
    const current = (memory[recordId] as ContactTier | undefined) ?? null;
    const contact = persons.get(recordId) ?? recordId;
    const repeat = priced.has(contact);
    priced.add(contact);
    const upTo = reached ? (reached.get(recordId) ?? null) : tier;
    const credits = repeat || !upTo ? 0 : unlockCredits(upTo, current);
    const reason = reasonOf({ requested: tier, current, reached: upTo, repeat, credits });
    return { recordId, current, credits, tier: credits > 0 ? upTo : null, reason };
  });
  return { credits: lines.reduce((s, l) => s + l.credits, 0), lines };
}

/** How an unlock's summary counts its records, in this order (the first that fits a record counts it). */
const TALLY: readonly [string, (l: UnlockLine) => boolean][] = [
  ['new', (l) => l.reason === 'charged' && l.current === null],
  ['upgraded from a lower tier (charged the difference)', (l) => l.reason === 'charged'],
  [
    'with nothing at this tier (charged for the highest tier below it with a value)',
    (l) => l.reason === 'charged_lower_tier',
  ],
  ['with nothing new at this tier (free)', (l) => l.reason === 'no_contact_at_tier'],
  ['already unlocked at this tier or above (free)', (l) => l.reason === 'already_unlocked'],
  ['the same person as another record (free)', (l) => l.reason === 'same_contact'],
];

/** "2 new, 1 with nothing new at this tier (free)": the records of an unlock by what they cost. */
export const unlockTally = (lines: UnlockLine[]): string =>
  TALLY.map(([label, fits]) => [label, lines.filter(fits).length] as const)
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${n} ${label}`)
    .join(', ') || 'no records';

/** Each record's `unlock_charge`: what it cost, for which tier, and why. */
const unlockCharge = (line: UnlockLine) => ({ credits: line.credits, tier: line.tier, reason: line.reason });

export interface ContactCard {
  contact: Contacts | null;
  /** For funds and companies: the person behind the contact details. */
  person?: { name: string; role: string };
  /** For funds and companies: the id of that person, as the fund or company names it. */
  personId?: string;
}

/**
 * Contact details behind each record: the record itself, the fund's partner or the company's founder.
 * `also` (the caller's own item the unlock needs, its unlock memory) is read in the same request as
 * the records' profiles, and `ofPeople` (what the caller holds of the people behind funds and companies)
 * in the same request as those people.
 */
export async function loadContacts<T, P>(
  pkg: PackageDef,
  recordIds: string[],
  also: Read<T>,
  ofPeople: (personIds: string[]) => Read<P>,
): Promise<{ cards: Map<string, ContactCard>; also: T; ofPeople?: P }> {
  const cards = new Map<string, ContactCard>();
  const unique = [...new Set(recordIds)];
  const [alsoValue, ...profiles] = await readTogether([
    also,
    ...unique.map((id) =>
      curatedEntityRead<CuratedPerson | CuratedFund | CuratedCompany>(pkg.entityKind as 'fund', id),
    ),
  ] as const);
  const byId = new Map(
    unique.map((id, i) => [id, profiles[i] as CuratedPerson | CuratedFund | CuratedCompany | undefined]),
  );
  if (pkg.contactVia === 'self') {
    for (const id of recordIds) cards.set(id, { contact: (byId.get(id) as Contacts | undefined) ?? null });
    return { cards, also: alsoValue as T };
  }
  const owners = byId as Map<string, CuratedFund | CuratedCompany | undefined>;
  const personOf = (o: CuratedFund | CuratedCompany | undefined) =>
    (o ? (o.kind === 'fund' ? o.partnerId : o.primaryContactId) : null) ?? undefined;
  const personIds = [...new Set(recordIds.flatMap((id) => personOf(owners.get(id)) ?? []))];
  const [ofPeopleValue, ...people] = await readTogether([
    ofPeople(personIds),
    ...personIds.map((id) => curatedEntityRead<CuratedPerson>('person', id)),
  ] as const);
  const byPerson = new Map(personIds.map((id, i) => [id, people[i] as CuratedPerson | undefined]));
  for (const id of recordIds) {
    const personId = personOf(owners.get(id));
    const person = byPerson.get(personId ?? '');
    const named = personId ? { personId } : {};
    cards.set(
      id,
      person
        ? { contact: person, person: { name: person.fullName, role: person.role }, ...named }
        : { contact: null, ...named },
    );
  }
  return { cards, also: alsoValue as T, ofPeople: ofPeopleValue as P };
}

const telegramUrl = (handle: string | null) => (handle ? `https://t.me/${handle.replace(/^@/, '')}` : null);
const CHANNEL_VALUES: Record<string, (c: Contacts) => string | null> = {
  email: (c) => c.email,
  LinkedIn_URL: (c) => c.linkedinUrl,
  X_URL: (c) => c.xUrl,
  Telegram_URL: (c) => telegramUrl(c.telegramHandle),
  telegram_handle: (c) => c.telegramHandle,
  phone: (c) => c.phone,
  GitHub_URL: (c) => c.githubUrl,
};

/** The highest tier up to `tier` at which the contact has a value in one of the package's channels; null: none. */
export function reachedTier(card: ContactCard | undefined, tier: ContactTier, pkg: PackageDef): ContactTier | null {
  const contact = card?.contact;
  if (!contact) return null;
  const upTo = CONTACT_TIERS.slice(0, CONTACT_TIERS.findIndex((t) => t.id === tier) + 1);
  const withValue = upTo.filter((t) =>
    t.channels.some(
      (channel) => pkg.channels.includes(channel) && CHANNEL_FIELDS[channel].some((f) => !!CHANNEL_VALUES[f](contact)),
    ),
  );
  return withValue.at(-1)?.id ?? null;
}

/** The record with every contact field its tier and package allow (null where the data has none). */
export function unlockedRecord(
  record: IntelRecord,
  tier: ContactTier,
  pkg: PackageDef,
  card: ContactCard | undefined,
): IntelRecord {
  const fields = channelsAt(tier, pkg).flatMap((c) => CHANNEL_FIELDS[c]);
  const contact = card?.contact ?? null;
  return {
    ...record,
    contact_tier: tier,
    ...(card?.person ? { contact_name: card.person.name, contact_role: card.person.role } : {}),
    ...Object.fromEntries(fields.map((f) => [f, contact ? CHANNEL_VALUES[f](contact) : null])),
  };
}

// ---- who an unlock pays for ------------------------------------------------------------------

/**
 * A fund's or company's unlock buys the details of the person behind it, who may also be a record of a
 * people package (a company's founder is one of its people): what the user holds of a record is the higher
 * of what was unlocked of the record itself and of that person, and an unlock is remembered on both, so the
 * same contact is never paid for twice.
 */
export interface UnlockHoldings {
  /** The tier each record's contact is unlocked at, by record id. */
  tiers: Record<string, string>;
  /** The writes that remember each record unlocked at its tier (records absent stay as they were). */
  unlock(tiers: ReadonlyMap<string, ContactTier>): TransactItem[];
}

/**
 * What the user holds of `recordIds`, given the person behind each (ContactCard.personId), `own` (the records'
 * memory) and `people` (those persons' memory).
 */
export function unlockHoldings(
  userId: string,
  pkg: PackageDef,
  recordIds: string[],
  persons: ReadonlyMap<string, string>,
  own: UnlockMemory,
  people: UnlockMemory,
): UnlockHoldings {
  const tiers: Record<string, string> = Object.create(null);
  for (const id of recordIds) {
    const person = persons.get(id);
    const held = higherTier(
      own.tiers[id] as ContactTier | undefined,
      person ? (people.tiers[person] as ContactTier | undefined) : undefined,
    );
    if (held) tiers[id] = held;
  }
  return {
    tiers,
    // Remembered on the records too, so what a result offers (its estimate, results.ts) reads one memory.
    unlock: (unlocked) => {
      const onPeople = new Map(
        [...unlocked].flatMap(([id, tier]) => {
          const person = persons.get(id);
          return person ? [[person, tier] as const] : [];
        }),
      );
      return [
        ...putUnlockMemoryItems(userId, pkg.entityKind, own, rememberTiers(own.tiers, unlocked)),
        ...putUnlockMemoryItems(userId, 'person', people, rememberTiers(people.tiers, onPeople)),
      ];
    },
  };
}

/** The unlock memory after unlocking `recordIds` at `tier` (tiers only ever go up). */
export const rememberUnlocks = (
  memory: Record<string, string>,
  recordIds: string[],
  tier: ContactTier,
): Record<string, string> => rememberTiers(memory, new Map(recordIds.map((id) => [id, tier])));

/** The unlock memory after unlocking each record at its own tier (tiers only ever go up). */
function rememberTiers(memory: Record<string, string>, unlocked: ReadonlyMap<string, ContactTier>) {
  const next = { ...memory };
  // higherTier answers null only when both are absent, and `tier` never is.
  for (const [id, tier] of unlocked) next[id] = higherTier(next[id] as ContactTier | undefined, tier) ?? tier;
  return next;
}

const NO_MEMORY: UnlockMemory = { tiers: {}, buckets: new Map() };

/** A contact unlock planned against current state: its price, its records as answered, what it remembers. */
export interface UnlockPlan {
  credits: number;
  lines: UnlockLine[];
  records: IntelRecord[];
  writes: TransactItem[];
}

/**
 * Quote and expand plan an unlock alike, from the records' contacts and what the user holds of them, so the
 * quote is exact. Each record is remembered at the tier it was paid for or already held (`reached`), never
 * above: a record with no value at the requested tier is charged when one appears, not given it for nothing.
 */
export async function planUnlock(
  userId: string,
  pkg: PackageDef,
  selected: IntelRecord[],
  tier: ContactTier,
): Promise<UnlockPlan> {
  const ids = selected.map((r) => r.record_id);
  const { cards, also, ofPeople } = await loadContacts(
    pkg,
    ids,
    unlockMemoryRead(userId, pkg.entityKind, ids),
    (personIds) => unlockMemoryRead(userId, 'person', personIds),
  );
  const persons = new Map(
    ids.flatMap((id) => {
      const person = cards.get(id)?.personId;
      return person ? [[id, person] as const] : [];
    }),
  );
  const held = unlockHoldings(userId, pkg, ids, persons, also, ofPeople ?? NO_MEMORY);
  const reached = new Map(ids.map((id) => [id, reachedTier(cards.get(id), tier, pkg)]));
  const price = priceUnlock(ids, tier, held.tiers, persons, reached);
  const remembered = new Map(
    ids.flatMap((id) => (reached.get(id) ? [[id, reached.get(id) as ContactTier] as const] : [])),
  );
  const records = selected.map((r, i) => ({
    ...unlockedRecord(
      r,
      higherTier(held.tiers[r.record_id] as ContactTier | undefined, tier) ?? tier,
      pkg,
      cards.get(r.record_id),
    ),
    unlock_charge: unlockCharge(price.lines[i]),
  }));
  return { credits: price.credits, lines: price.lines, records, writes: held.unlock(remembered) };
}

// ---- increase_limit ----------------------------------------------------------------------------

export const increaseLimitQuote = (pkg: PackageDef, available: number, blocks: number) => {
  const records = Math.min(available, increaseLimitRecords(blocks));
  return { records, credits: increaseLimitCredits(pkg, records) };
};

// ---- network_depth -----------------------------------------------------------------------------

export interface FundNetwork {
  co_investors: {
    fund_id: string;
    name: string;
    shared_rounds: number;
    rounds_led_by_this_fund: number;
    last_shared_round: string;
    relationship_strength: 'strong' | 'medium' | 'weak';
  }[];
  shared_portfolio_companies: { company_id: string; name: string; co_investors: string[]; rounds: number }[];
  relationship_strength: 'strong' | 'medium' | 'weak' | 'none';
  network_summary: string;
}

const strengthOf = (shared: number, recent: number): 'strong' | 'medium' | 'weak' =>
  shared >= 5 || recent >= 3 ? 'strong' : shared >= 2 ? 'medium' : 'weak';

/** Co-investors from shared rounds (with counts and recency), the companies they share, and how close they are. */
export function networkOf(fund: CuratedFund): FundNetwork {
  const partners = new Map<
    string,
    { name: string; shared: number; led: number; recent: number; last: string; companies: Set<string> }
  >();
  const companies = new Map<string, { name: string; partners: Set<string>; rounds: number }>();
  for (const round of fund.rounds) {
    const others = round.investors.filter((i) => i.id !== fund.id);
    if (others.length === 0) continue;
    const company = companies.get(round.companyId) ?? {
      name: round.companyName,
      partners: new Set<string>(),
      rounds: 0,
    };
    company.rounds += 1;
    for (const other of others) {
      const p = partners.get(other.id) ?? {
        name: other.name,
        shared: 0,
        led: 0,
        recent: 0,
        last: '',
        companies: new Set<string>(),
      };
      p.shared += 1;
      if (round.leadFundId === fund.id) p.led += 1;
      if (daysBetween(round.announcedOn, DATASET_AS_OF) <= 730) p.recent += 1;
      if (round.announcedOn > p.last) p.last = round.announcedOn;
      p.companies.add(round.companyId);
      partners.set(other.id, p);
      company.partners.add(other.name);
    }
    companies.set(round.companyId, company);
  }
  const coInvestors = [...partners.entries()]
    .sort(([a, x], [b, y]) => y.shared - x.shared || y.recent - x.recent || a.localeCompare(b))
    .slice(0, 10)
    .map(([id, p]) => ({
      fund_id: id,
      name: p.name,
      shared_rounds: p.shared,
      rounds_led_by_this_fund: p.led,
      last_shared_round: p.last,
      relationship_strength: strengthOf(p.shared, p.recent),
    }));
  const top = new Set(coInvestors.slice(0, 5).map((c) => c.name));
  const shared = [...companies.entries()]
    .map(([id, c]) => ({
      company_id: id,
      name: c.name,
      co_investors: [...c.partners].filter((n) => top.has(n)),
      rounds: c.rounds,
    }))
    .filter((c) => c.co_investors.length > 0)
    .sort(
      (a, b) => b.co_investors.length - a.co_investors.length || b.rounds - a.rounds || a.name.localeCompare(b.name),
    )
    .slice(0, 10);
  const best = coInvestors[0];
  return {
    co_investors: coInvestors,
    shared_portfolio_companies: shared,
    relationship_strength: best ? best.relationship_strength : 'none',
    network_summary: best
      ? `${fund.name} co-invests most with ${best.name} (${best.shared_rounds} shared rounds, latest ${best.last_shared_round})${coInvestors[1] ? ` and ${coInvestors[1].name} (${coInvestors[1].shared_rounds})` : ''}; ${shared.length} portfolio companies are shared with its top co-investors.`
      : `${fund.name} has no co-invested rounds on record.`,
  };
}

export const networkDepthQuote = (records: number) => ({ records, credits: networkDepthCredits(records) });
