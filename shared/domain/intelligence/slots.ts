/**
 * Slot validation and canonical form. Every slot value is brought to one canonical
 * form (taxonomy ids, numbers), so "DeFi" and "decentralized finance" are the same request: quotes
 * bind to it, identical queries are recognised by it, and filled_slots shows it.
 */
import type { FieldIssue } from '#shared/domain/errors';
import { own } from '#shared/dictionary';
import {
  BUILDER_CATEGORIES,
  ECOSYSTEMS,
  FUND_TYPES,
  JURISDICTIONS,
  PLATFORMS,
  ROLE_FAMILIES,
  SECTORS,
  SKILLS,
  STAGES,
  termsIn,
} from '#shared/domain/curated/taxonomy';
import {
  BUILDER_CATEGORY_SYNONYMS,
  ECOSYSTEM_SYNONYMS,
  FILLER_WORDS,
  FUND_TYPE_SYNONYMS,
  JURISDICTION_SYNONYMS,
  PLATFORM_SYNONYMS,
  ROLE_FAMILY_SYNONYMS,
  SECTOR_SYNONYMS,
  STAGE_SYNONYMS,
} from '#shared/domain/curated/slotSynonyms';
import { buildVocabulary, matchTerms, type Vocabulary } from './termMatch';
import type { PackageDef, SlotDef, SlotKind } from './packages';

export type SlotValue = string | number;
export type CanonicalSlots = Record<string, SlotValue>;

/** The slot kinds whose values are taxonomy ids, each with its everyday words. */
export const VOCABULARIES: ReadonlyMap<SlotKind, Vocabulary> = new Map<SlotKind, Vocabulary>([
  ['sector', buildVocabulary(SECTORS, SECTOR_SYNONYMS, FILLER_WORDS)],
  ['stage', buildVocabulary(STAGES, STAGE_SYNONYMS, FILLER_WORDS)],
  ['fundType', buildVocabulary(FUND_TYPES, FUND_TYPE_SYNONYMS, FILLER_WORDS)],
  ['jurisdiction', buildVocabulary(JURISDICTIONS, JURISDICTION_SYNONYMS, FILLER_WORDS)],
  ['platform', buildVocabulary(PLATFORMS, PLATFORM_SYNONYMS, FILLER_WORDS)],
  ['ecosystem', buildVocabulary(ECOSYSTEMS, ECOSYSTEM_SYNONYMS, FILLER_WORDS)],
  ['builderCategory', buildVocabulary(BUILDER_CATEGORIES, BUILDER_CATEGORY_SYNONYMS, FILLER_WORDS)],
  ['roleFamily', buildVocabulary(ROLE_FAMILIES, ROLE_FAMILY_SYNONYMS, FILLER_WORDS)],
]);

/** A slot that holds several taxonomy ids keeps them in one string, in taxonomy order. */
const ID_SEPARATOR = ', ';
export const slotIds = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

type Canonical =
  | { ok: true; value: SlotValue }
  | { ok: false; message: string; misunderstood?: boolean; suggestions?: string[] };

/**
 * A taxonomy slot: the ids its words name. A slot holding one value refuses a word naming several
 * ("early stage" is pre-seed or seed) and asks for one; a word naming nothing gets the nearest ids.
 */
function canonicalTerms(def: SlotDef, vocabulary: Vocabulary, text: string): Canonical {
  const match = matchTerms(vocabulary, text);
  if (!match.found) {
    return {
      ok: false,
      misunderstood: true,
      suggestions: match.suggestions,
      message: `Not a value we know; nearest: ${match.suggestions.join(', ')} (accepted: ${vocabulary.order.join(', ')})`,
    };
  }
  if (match.ids.length > 1 && !def.multiple) {
    return {
      ok: false,
      misunderstood: true,
      suggestions: match.ids,
      message: `"${text}" could mean ${match.ids.join(', ')}; choose one`,
    };
  }
  return { ok: true, value: match.ids.join(ID_SEPARATOR) };
}

/** `2M USD` → `2M`. By hand: `/\s*(usd|dollars)$/` retried its `\s*` from every blank of a long run (quadratic). */
function withoutCurrencyWord(text: string): string {
  const lower = text.toLowerCase();
  const word = ['usd', 'dollars'].find((w) => lower.endsWith(w));
  return word ? text.slice(0, text.length - word.length).trimEnd() : text;
}

const NUMBER_AT = /[0-9][0-9,]*(?:\.[0-9]+)?/y;
const UNITS = new Set(['', 'k', 'm', 'mm', 'b', '%']);

/** `$ 2,500.5 k` → the number and its unit, read left to right once (user text: no backtracking pattern). */
function amountParts(text: string): [string, string] | undefined {
  let i = text.startsWith('$') ? 1 : 0;
  while (i < text.length && text[i].trim() === '') i++;
  NUMBER_AT.lastIndex = i;
  const number = NUMBER_AT.exec(text)?.[0];
  if (!number) return undefined;
  const unit = text.slice(i + number.length).trimStart();
  return UNITS.has(unit.toLowerCase()) ? [number, unit] : undefined;
}

/** `10k` → 10000, `1.5M` → 1500000, `50%` → 0.5, `2,500` → 2500. */
export function parseAmount(text: string): number | undefined {
  const m = amountParts(withoutCurrencyWord(text.trim()));
  if (!m) return undefined;
  const n = Number(m[0].replace(/,/g, ''));
  const unit = m[1].toLowerCase();
  const factor =
    unit === 'k' ? 1e3 : unit === 'm' || unit === 'mm' ? 1e6 : unit === 'b' ? 1e9 : unit === '%' ? 0.01 : 1;
  return Math.round(n * factor * 1e6) / 1e6;
}

function canonicalise(def: SlotDef, raw: unknown, max: number): Canonical {
  const kind = def.kind;
  const vocabulary = VOCABULARIES.get(kind);
  if (kind === 'limit') {
    if (typeof raw !== 'number' || !Number.isInteger(raw)) return { ok: false, message: 'Expected an integer' };
    if (raw < 1 || raw > max) return { ok: false, message: `Must be between 1 and ${max}` };
    return { ok: true, value: raw };
  }
  if (kind === 'money') {
    if (typeof raw !== 'number' || !Number.isFinite(raw)) return { ok: false, message: 'Expected a number (USD)' };
    if (raw < 0) return { ok: false, message: 'Must not be negative' };
    return { ok: true, value: raw };
  }
  if (kind === 'threshold' || kind === 'tier') {
    if (typeof raw !== 'number' && typeof raw !== 'string')
      return { ok: false, message: 'Expected a number or a numeric string' };
    const n =
      typeof raw === 'number'
        ? raw
        : kind === 'tier'
          ? Number(/^\s*(?:tier\s*)?([0-9]+)\s*$/i.exec(raw)?.[1] ?? NaN)
          : parseAmount(raw);
    if (n === undefined || !Number.isFinite(n) || n < 0)
      return { ok: false, message: 'Expected a non-negative number such as "10000" or "10k"' };
    if (kind === 'tier' && !(Number.isInteger(n) && n >= 1 && n <= 3))
      return { ok: false, message: 'Tier must be 1, 2 or 3' };
    return { ok: true, value: n };
  }
  if (typeof raw !== 'string') return { ok: false, message: 'Expected a string' };
  const text = raw.trim().replace(/\s+/g, ' ');
  if (text.length === 0) return { ok: false, message: 'Must not be empty' };
  if (text.length > 200) return { ok: false, message: 'At most 200 characters' };
  if (vocabulary) return canonicalTerms(def, vocabulary, text);
  switch (kind) {
    case 'skills': {
      const skills = [
        ...new Set(
          text
            .split(/\s*(?:,|;|\band\b|\/)\s*/i)
            .filter(Boolean)
            .map((s) => SKILLS.find((k) => k.toLowerCase() === s.toLowerCase()) ?? s),
        ),
      ];
      return skills.length ? { ok: true, value: skills.join(', ') } : { ok: false, message: 'Name at least one skill' };
    }
    case 'audience':
      return termsIn(SECTORS, text).length
        ? { ok: true, value: text }
        : {
            ok: false,
            misunderstood: true,
            message: `Name at least one sector in the audience, e.g. "DeFi power users"; sectors: ${SECTORS.map((t) => t.id).join(', ')}`,
          };
    default:
      return { ok: true, value: text };
  }
}

export interface SlotCheck {
  slots: CanonicalSlots;
  /** Malformed input: always a 400. */
  issues: FieldIssue[];
  /** Well-formed values the taxonomy does not know: resolve asks again, quote refuses. */
  misunderstood: FieldIssue[];
  missing: string[];
}

/**
 * Validates and canonicalises `input` for a package. `limit` takes its default when absent, so it
 * is never missing.
 */
export function checkSlots(pkg: PackageDef, input: Record<string, unknown>): SlotCheck {
  const slots: CanonicalSlots = {};
  const issues: FieldIssue[] = [];
  const misunderstood: FieldIssue[] = [];
  for (const [name, raw] of Object.entries(input)) {
    const def = own(pkg.slots, name);
    if (!def) {
      issues.push({
        path: `slots.${name}`,
        message: `Unknown slot for ${pkg.id}; slots are: ${Object.keys(pkg.slots).join(', ')}`,
      });
      continue;
    }
    if (raw === null || raw === undefined) continue;
    const result = canonicalise(def, raw, pkg.limit.max);
    if (result.ok) slots[name] = result.value;
    else
      (result.misunderstood ? misunderstood : issues).push({
        path: `slots.${name}`,
        message: result.message,
        ...(result.suggestions ? { suggestions: result.suggestions } : {}),
      });
  }
  slots.limit ??= pkg.limit.default;
  const min = slots.min_investment;
  const max = slots.max_investment;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    issues.push({ path: 'slots.min_investment', message: 'min_investment is larger than max_investment' });
  }
  const missing = Object.entries(pkg.slots)
    .filter(([name, def]) => def.required && slots[name] === undefined)
    .map(([name]) => name);
  return { slots: sortKeys(slots), issues, misunderstood, missing };
}

/** Keys in a fixed order, so the canonical JSON of equal slots is equal text. */
export function sortKeys<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) as T;
}
