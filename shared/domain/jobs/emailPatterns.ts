/**
 * Company address patterns: which local-part shape a domain uses, inferred from addresses known at
 * that domain, then applied to a person's name. Pure.
 */
export interface NameParts {
  first: string;
  last: string;
}

export const EMAIL_PATTERNS: { id: string; build: (n: NameParts) => string }[] = [
  { id: '{first}.{last}', build: ({ first, last }) => `${first}.${last}` },
  { id: '{first}{last}', build: ({ first, last }) => `${first}${last}` },
  { id: '{f}{last}', build: ({ first, last }) => `${first[0]}${last}` },
  { id: '{f}.{last}', build: ({ first, last }) => `${first[0]}.${last}` },
  { id: '{first}_{last}', build: ({ first, last }) => `${first}_${last}` },
  { id: '{first}-{last}', build: ({ first, last }) => `${first}-${last}` },
  { id: '{first}{l}', build: ({ first, last }) => `${first}${last[0]}` },
  { id: '{last}.{first}', build: ({ first, last }) => `${last}.${first}` },
  { id: '{first}', build: ({ first }) => first },
  { id: '{last}', build: ({ last }) => last },
];

/** Lower-case ASCII letters only: `José-María` → `josemaria`. */
export const namePart = (value: string | null | undefined): string =>
  (value ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** First and last name from separate fields or a full name; undefined when either is missing. */
export function nameParts(input: {
  first_name?: string | null;
  last_name?: string | null;
  full_name?: string | null;
}): NameParts | undefined {
  const words = (input.full_name ?? '').trim().split(/\s+/).filter(Boolean);
  const first = namePart(input.first_name ?? words[0]);
  const last = namePart(input.last_name ?? (words.length > 1 ? words[words.length - 1] : undefined));
  return first && last ? { first, last } : undefined;
}

export interface InferredPattern {
  pattern: string;
  /** Known addresses the pattern explains, of `samples`. */
  support: number;
  samples: number;
  confidence: number;
}

/**
 * The pattern that explains most known addresses (ties: the table's order, most common first).
 * Confidence grows with the share explained and with the number of samples (full weight from 3).
 */
export function inferPattern(known: { name: NameParts; localPart: string }[]): InferredPattern | undefined {
  if (known.length === 0) return undefined;
  let best: { pattern: string; support: number } | undefined;
  for (const candidate of EMAIL_PATTERNS) {
    const support = known.filter((k) => candidate.build(k.name) === k.localPart.toLowerCase()).length;
    if (support > 0 && (!best || support > best.support)) best = { pattern: candidate.id, support };
  }
  if (!best) return undefined;
  const share = best.support / known.length;
  const confidence = Math.round(Math.min(0.95, 0.5 + 0.45 * share * Math.min(1, known.length / 3)) * 100) / 100;
  return { ...best, samples: known.length, confidence };
}

export const applyPattern = (patternId: string, name: NameParts, domain: string): string | undefined => {
  const pattern = EMAIL_PATTERNS.find((p) => p.id === patternId);
  return pattern ? `${pattern.build(name)}@${domain}` : undefined;
};
