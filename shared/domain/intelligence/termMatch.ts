/**
 * Free words in a slot value → taxonomy ids. Pure and linear in the input: no regular expression
 * with backtracking sees the caller's text, and every lookup goes through a Map, so a value such as
 * "constructor" or "__proto__" is just an unknown word.
 *
 * A value is read as words; at each word the longest run of words (up to MAX_PHRASE_WORDS) that
 * names a term is taken, and words that only qualify ("senior", "web3", "and") are skipped. Every
 * other word must name something: "banana developer" is refused rather than read as "developer",
 * because a slot is a filter the caller pays for and a silently dropped word changes the result.
 */
import type { Term } from '#shared/domain/curated/taxonomy';
import type { SynonymTable } from '#shared/domain/curated/slotSynonyms';

const MAX_PHRASE_WORDS = 5;
/** Suggestions compare at most this many characters, which bounds their cost on long input. */
const MAX_PROBE = 64;

export interface Vocabulary {
  /** Ids in taxonomy order: results and suggestions come out in this order. */
  order: readonly string[];
  index: ReadonlyMap<string, readonly string[]>;
  fillers: ReadonlySet<string>;
}

export type TermMatch = { found: true; ids: string[] } | { found: false; suggestions: string[] };

/** Lower case without accents, split into words of letters, digits and '+' (so "Series B+" keeps its plus). */
export function words(text: string): string[] {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return plain.split(/[^a-z0-9+]+/).filter(Boolean);
}

/** One key per spelling: "Solidity-Devs", "solidity devs" and "soliditydevs" are the same key. */
export const compactKey = (text: string): string => words(text).join('');

/** English plural to singular, enough for the taxonomy's nouns ("devs", "auditors", "rwas", "dexes"). */
export function singular(key: string): string {
  if (key.length <= 3) return key;
  if (key.endsWith('ies')) return `${key.slice(0, -3)}y`;
  if (key.endsWith('sses') || key.endsWith('xes') || key.endsWith('ches') || key.endsWith('shes'))
    return key.slice(0, -2);
  if (key.endsWith('s') && !key.endsWith('ss')) return key.slice(0, -1);
  return key;
}

export function buildVocabulary(
  terms: readonly Term[],
  synonyms: SynonymTable<string>,
  fillers: readonly string[],
): Vocabulary {
  const sets = new Map<string, Set<string>>();
  const add = (phrase: string, ids: readonly string[]) => {
    const key = compactKey(phrase);
    for (const k of new Set([key, singular(key)])) {
      if (!k) continue;
      const set = sets.get(k) ?? new Set<string>();
      for (const id of ids) set.add(id);
      sets.set(k, set);
    }
  };
  for (const t of terms) for (const p of [t.id, t.label, ...t.synonyms]) add(p, [t.id]);
  for (const [phrase, ids] of synonyms) add(phrase, ids);
  const order = terms.map((t) => t.id);
  const inOrder = (ids: Iterable<string>) => [...ids].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return {
    order,
    index: new Map([...sets].map(([k, ids]) => [k, inOrder(ids)])),
    fillers: new Set(fillers.map(compactKey)),
  };
}

const lookup = (vocabulary: Vocabulary, key: string) =>
  vocabulary.index.get(key) ?? vocabulary.index.get(singular(key));

/** The ids a slot value names (in taxonomy order), or the nearest ids when some word names nothing. */
export function matchTerms(vocabulary: Vocabulary, text: string): TermMatch {
  const ws = words(text);
  const found = new Set<string>();
  let understood = true;
  for (let i = 0; i < ws.length; ) {
    let taken = 0;
    for (let n = Math.min(MAX_PHRASE_WORDS, ws.length - i); n >= 1 && !taken; n--) {
      const ids = lookup(vocabulary, ws.slice(i, i + n).join(''));
      if (ids) {
        for (const id of ids) found.add(id);
        taken = n;
      }
    }
    if (!taken && !vocabulary.fillers.has(ws[i])) understood = false;
    i += taken || 1;
  }
  const ids = vocabulary.order.filter((id) => found.has(id));
  if (understood && ids.length) return { found: true, ids };
  // The words we did understand are the best guess; otherwise the closest spellings.
  return { found: false, suggestions: ids.length ? ids : nearest(vocabulary, compactKey(text)) };
}

/** The `count` ids whose spellings are closest to `key` (edit distance), ties in taxonomy order. */
export function nearest(vocabulary: Vocabulary, key: string, count = 3): string[] {
  const probe = key.slice(0, MAX_PROBE);
  const best = new Map<string, number>();
  for (const [spelling, ids] of vocabulary.index) {
    const d = editDistance(probe, spelling.slice(0, MAX_PROBE));
    for (const id of ids) if (d < (best.get(id) ?? Infinity)) best.set(id, d);
  }
  return [...best]
    .sort(([a, x], [b, y]) => x - y || vocabulary.order.indexOf(a) - vocabulary.order.indexOf(b))
    .slice(0, count)
    .map(([id]) => id);
}

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
