/**
 * Reads slot values out of a free-text request ("25 seed-stage DeFi VCs in Singapore writing
 * $500k-$2M cheques"). One extractor per slot kind; only the package's own slots are filled, and the
 * caller lets explicit slots win. Values come out in the shape slots take (ids, numbers), so they go
 * through the same validation as explicit ones.
 */
import {
  BUILDER_CATEGORIES,
  ECOSYSTEMS,
  FUND_TYPES,
  HACKATHONS,
  JURISDICTIONS,
  LOCATIONS,
  PLATFORMS,
  ROLE_FAMILIES,
  SECTORS,
  SKILLS,
  STAGES,
  termsIn,
  type Term,
} from '#shared/domain/curated/taxonomy';
import { parseAmount } from './slots';
import type { PackageDef, SlotKind } from './packages';

const first = <T extends Term>(terms: readonly T[], text: string) =>
  termsIn(terms, text, { shortInCapitals: true })[0]?.id;
/*
 * These patterns see user text, so each must run in linear time. A number is
 * digits with single separators (`[0-9](?:[,.]?[0-9])*`, one way to match) and may only start where
 * no number is already under way (the lookbehinds): a long run of digits or separators is read once
 * from its start, not again from every position inside it. parseRequestText collapses white space
 * first, so adjacent `\s*` cannot split a long run between them.
 */
const NUMBER = '(?<![0-9])(?<![0-9][,.])[0-9](?:[,.]?[0-9])*';
const MONEY = String.raw`\$\s*${NUMBER}\s*(?:k|m|mm|b)?|${NUMBER}\s*(?:k|m|mm)\b`;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Cheque sizes: "$500k-$2M", "between $1M and $3M", "at least $250k", "up to $2M", "$1M+". */
export function chequeRange(text: string): { min?: number; max?: number } {
  const range = new RegExp(`(${MONEY})\\s*(?:-|–|to|and)\\s*(${MONEY})`, 'i').exec(text);
  if (range) {
    const [min, max] = [parseAmount(range[1]), parseAmount(range[2])];
    if (min !== undefined && max !== undefined) return { min: Math.min(min, max), max: Math.max(min, max) };
  }
  const atLeast = new RegExp(
    `(?:at least|min(?:imum)?|over|above|more than|from)\\s*(${MONEY})|(${MONEY})\\s*\\+`,
    'i',
  ).exec(text);
  const upTo = new RegExp(`(?:up to|at most|max(?:imum)?|under|below|less than)\\s*(${MONEY})`, 'i').exec(text);
  return {
    ...(atLeast ? { min: parseAmount(atLeast[1] ?? atLeast[2]) } : {}),
    ...(upTo ? { max: parseAmount(upTo[1]) } : {}),
  };
}

/** "10k+ followers", "over 50,000 followers", "at least 1M followers". */
function followerThreshold(text: string): number | undefined {
  const m =
    new RegExp(String.raw`(${NUMBER}\s*[km]?)\s*\+?\s*followers`, 'i').exec(text) ??
    new RegExp(String.raw`(?:followers?\s*(?:of|above|over|>=?|≥)\s*)(${NUMBER}\s*[km]?)`, 'i').exec(text);
  return m ? parseAmount(m[1].replace(/\s+/g, '')) : undefined;
}

function scoreThreshold(text: string, label: string): number | undefined {
  const m = new RegExp(
    `${label}\\s*(?:score)?\\s*(?:of\\s*)?(?:above|over|at least|>=?|≥|min(?:imum)?)?\\s*([0-9][0-9.,]*%?)`,
    'i',
  ).exec(text);
  return m ? parseAmount(m[1]) : undefined;
}

/** The requested count: "top 25", "find 10 VCs", "limit 30" (not amounts, years, tiers or follower counts). */
function count(text: string): number | undefined {
  const pattern = /(?<![$\d.,])\b(\d{1,3})\b(?!\s*(?:k\b|m\b|mm\b|%|,\d|\.\d|\+?\s*followers|\s*usd))/gi;
  for (const m of text.matchAll(pattern)) {
    const before = text.slice(Math.max(0, m.index - 12), m.index).toLowerCase();
    if (/(tier|series|score|gm|engagement|above|over|least)\s*$/.test(before)) continue;
    return Number(m[1]);
  }
  return undefined;
}

function location(text: string): string | undefined {
  const lower = ` ${text.toLowerCase()} `;
  for (const place of LOCATIONS) {
    for (const name of [place.city, place.country, place.region]) {
      if (new RegExp(`[^a-z]${escapeRegExp(name.toLowerCase())}[^a-z]`).test(lower)) return name;
    }
  }
  return undefined;
}

function skills(text: string): string | undefined {
  const found = SKILLS.filter((s) =>
    new RegExp(`(^|[^a-z])${escapeRegExp(s.toLowerCase())}([^a-z]|$)`).test(text.toLowerCase()),
  );
  return found.length ? found.join(', ') : undefined;
}

const NAME = String.raw`([A-Z0-9][\w.&'-]*(?:\s+(?:[A-Z0-9][\w.&'-]*|of|and|&)){0,4})`;
const trimName = (s: string) =>
  s
    .replace(/\s+(?:and|of|&)$/i, '')
    .replace(/[.,;:!?]+$/, '')
    .trim();

function companyName(text: string): string | undefined {
  // Starts only where a run of host characters starts (a later start in the same run cannot match where the first did not).
  const domain = /\b(?<![a-z0-9-])([a-z0-9-]+\.(?:io|xyz|com|network|finance|app|fi|so|tech|co|org|dev))\b/i.exec(text);
  const named = new RegExp(`\\b(?:at|from|of|inside|for)\\s+${NAME}`).exec(text);
  if (named && !location(named[1])) return trimName(named[1]);
  return domain?.[1]?.toLowerCase();
}

function fundName(text: string): string | undefined {
  const m = new RegExp(
    `\\b(?:intros?|introductions?|routes?|paths?|warm intros?)?\\s*(?:to|into|with|reach|meet)\\s+${NAME}`,
  ).exec(text);
  return m ? trimName(m[1]) : undefined;
}

function hackathon(text: string): string | undefined {
  const lower = text.toLowerCase();
  const known = HACKATHONS.find((h) => lower.includes(h.toLowerCase()));
  if (known) return known;
  return /\b(ETHGlobal\s+[A-Z][a-z]+|ETHDenver|Colosseum|ZK Hack)\b/.exec(text)?.[1];
}

function audience(text: string): string | undefined {
  const sectors = termsIn(SECTORS, text, { shortInCapitals: true });
  return sectors.length ? sectors.map((s) => s.label).join(', ') : undefined;
}

/** Extractors by slot kind; `slot` distinguishes the two money slots and the three thresholds. */
const EXTRACTORS: Partial<Record<SlotKind, (text: string, slot: string) => unknown>> = {
  limit: count,
  money: (text, slot) => chequeRange(text)[slot === 'min_investment' ? 'min' : 'max'],
  threshold: (text, slot) =>
    slot === 'min_followers'
      ? followerThreshold(text)
      : slot === 'min_gm_score'
        ? scoreThreshold(text, 'gm')
        : scoreThreshold(text, 'engagement'),
  tier: (text) => /\btier[\s-]*([123])\b/i.exec(text)?.[1],
  sector: (text) => first(SECTORS, text),
  stage: (text) => first(STAGES, text),
  // "VCs" in prose usually means investors in general, so only the other fund types narrow a request.
  fundType: (text) =>
    first(
      FUND_TYPES.filter((t) => t.id !== 'vc'),
      text,
    ),
  jurisdiction: (text) => first(JURISDICTIONS, text),
  platform: (text) => first(PLATFORMS, text) ?? (/\bon X\b/.test(text) ? 'x' : undefined),
  ecosystem: (text) => first(ECOSYSTEMS, text),
  builderCategory: (text) => first(BUILDER_CATEGORIES, text),
  roleFamily: (text) => first(ROLE_FAMILIES, text),
  location,
  skills,
  audience,
};

/** Slot values read from `text`, for the package's slots only. Counts above the package maximum are capped. */
export function parseRequestText(pkg: PackageDef, raw: string): Record<string, unknown> {
  const text = raw.replace(/\s+/g, ' ');
  const out: Record<string, unknown> = {};
  for (const [slot, def] of Object.entries(pkg.slots)) {
    const extractor =
      def.kind === 'text'
        ? slot === 'company_name'
          ? companyName
          : slot === 'target_fund_name'
            ? fundName
            : slot === 'hackathon_name'
              ? hackathon
              : undefined
        : EXTRACTORS[def.kind];
    const value = extractor?.(text, slot);
    if (value === undefined || value === null || value === '') continue;
    out[slot] = def.kind === 'limit' ? Math.min(Number(value), pkg.limit.max) : value;
  }
  return out;
}
