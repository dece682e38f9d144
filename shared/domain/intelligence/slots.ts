/**
 * Slot validation and canonical form (contract 5). Every slot value is brought to one canonical
 * form (taxonomy ids, numbers), so "DeFi" and "decentralized finance" are the same request: quotes
 * bind to it, identical queries are recognised by it, and filled_slots shows it.
 */
import type { FieldIssue } from '../../http/errors';
import {
  BUILDER_CATEGORIES, ECOSYSTEMS, FUND_TYPES, JURISDICTIONS, PLATFORMS, ROLE_FAMILIES, SECTORS, SKILLS, STAGES,
  termFor, termsIn, type Term,
} from '../../data/taxonomy';
import type { PackageDef, SlotKind } from './packages';

export type SlotValue = string | number;
export type CanonicalSlots = Record<string, SlotValue>;

const VOCABULARIES: Partial<Record<SlotKind, readonly Term[]>> = {
  sector: SECTORS,
  stage: STAGES,
  fundType: FUND_TYPES,
  jurisdiction: JURISDICTIONS,
  platform: PLATFORMS,
  ecosystem: ECOSYSTEMS,
  builderCategory: BUILDER_CATEGORIES,
};

type Canonical = { ok: true; value: SlotValue } | { ok: false; message: string; misunderstood?: boolean };

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
  const factor = unit === 'k' ? 1e3 : unit === 'm' || unit === 'mm' ? 1e6 : unit === 'b' ? 1e9 : unit === '%' ? 0.01 : 1;
  return Math.round(n * factor * 1e6) / 1e6;
}

const accepted = (terms: readonly Term[]) => terms.map((t) => t.id).join(', ');

function canonicalise(kind: SlotKind, raw: unknown, max: number): Canonical {
  const vocabulary = VOCABULARIES[kind];
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
    if (typeof raw !== 'number' && typeof raw !== 'string') return { ok: false, message: 'Expected a number or a numeric string' };
    const n = typeof raw === 'number' ? raw : kind === 'tier' ? Number(/^\s*(?:tier\s*)?([0-9]+)\s*$/i.exec(raw)?.[1] ?? NaN) : parseAmount(raw);
    if (n === undefined || !Number.isFinite(n) || n < 0) return { ok: false, message: 'Expected a non-negative number such as "10000" or "10k"' };
    if (kind === 'tier' && !(Number.isInteger(n) && n >= 1 && n <= 3)) return { ok: false, message: 'Tier must be 1, 2 or 3' };
    return { ok: true, value: n };
  }
  if (typeof raw !== 'string') return { ok: false, message: 'Expected a string' };
  const text = raw.trim().replace(/\s+/g, ' ');
  if (text.length === 0) return { ok: false, message: 'Must not be empty' };
  if (text.length > 200) return { ok: false, message: 'At most 200 characters' };
  if (vocabulary) {
    const term = termFor(vocabulary, text);
    return term ? { ok: true, value: term.id } : { ok: false, misunderstood: true, message: `Not a known value; use one of: ${accepted(vocabulary)}` };
  }
  switch (kind) {
    case 'roleFamily':
      return { ok: true, value: termFor(ROLE_FAMILIES, text)?.id ?? text.toLowerCase() };
    case 'skills': {
      const skills = [...new Set(text.split(/\s*(?:,|;|\band\b|\/)\s*/i).filter(Boolean).map((s) => SKILLS.find((k) => k.toLowerCase() === s.toLowerCase()) ?? s))];
      return skills.length ? { ok: true, value: skills.join(', ') } : { ok: false, message: 'Name at least one skill' };
    }
    case 'audience':
      return termsIn(SECTORS, text).length
        ? { ok: true, value: text }
        : { ok: false, misunderstood: true, message: `Name at least one sector in the audience, e.g. "DeFi power users"; sectors: ${accepted(SECTORS)}` };
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
    const def = pkg.slots[name];
    if (!def) {
      issues.push({ path: `slots.${name}`, message: `Unknown slot for ${pkg.id}; slots are: ${Object.keys(pkg.slots).join(', ')}` });
      continue;
    }
    if (raw === null || raw === undefined) continue;
    const result = canonicalise(def.kind, raw, pkg.limit.max);
    if (result.ok) slots[name] = result.value;
    else (result.misunderstood ? misunderstood : issues).push({ path: `slots.${name}`, message: result.message });
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
