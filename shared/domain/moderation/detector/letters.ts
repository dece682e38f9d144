/**
 * Look-alike letters. Spam writes "РауРаl" with Cyrillic capitals, "un1swap" with a digit and
 * "Гoтoвы" with Latin o's inside a Russian word, so that word lists and filters miss it. Before
 * anything is matched, NFKC folds the compatibility forms (fullwidth, mathematical bold, ligatures)
 * and a word's letters from the wrong script are put back into the word's own script; a word that
 * needed it is a signal of its own. The table holds the look-alikes that matter in practice (Latin,
 * Cyrillic, Greek): the full Unicode confusables data would cost the moderation bundle about 30 KB.
 */

/** A table written as two-letter strings: the letter, then what it stands for. */
const pairsOf = (pairs: string[]) => new Map(pairs.map((pair) => [pair[0], pair[1]]));

/** Cyrillic and Greek letters that look like a Latin one, both cases. */
const TO_LATIN = pairsOf([
  // Cyrillic
  'аa',
  'вb',
  'еe',
  'ёe',
  'кk',
  'мm',
  'нh',
  'оo',
  'рp',
  'сc',
  'тt',
  'уy',
  'хx',
  'іi',
  'їi',
  'јj',
  'ѕs',
  'ԁd',
  'ԛq',
  'ԝw',
  'ӏl',
  'ьb',
  'АA',
  'ВB',
  'ЕE',
  'ЁE',
  'КK',
  'МM',
  'НH',
  'ОO',
  'РP',
  'СC',
  'ТT',
  'УY',
  'ХX',
  'ІI',
  'ЈJ',
  'ЅS',
  'ԚQ',
  'ԜW',
  'ӀI',
  // Greek
  'αa',
  'βb',
  'εe',
  'ιi',
  'κk',
  'νv',
  'οo',
  'ρp',
  'τt',
  'υu',
  'χx',
  'ΑA',
  'ΒB',
  'ΕE',
  'ΖZ',
  'ΗH',
  'ΙI',
  'ΚK',
  'ΜM',
  'ΝN',
  'ΟO',
  'ΡP',
  'ΤT',
  'ΥY',
  'ΧX',
]);

/** Latin letters that look like a Cyrillic one: what a Russian word written with Latin o's is folded back with. */
const TO_CYRILLIC = pairsOf([
  'aа',
  'eе',
  'oо',
  'pр',
  'cс',
  'yу',
  'xх',
  'kк',
  'AА',
  'BВ',
  'EЕ',
  'KК',
  'MМ',
  'HН',
  'OО',
  'PР',
  'CС',
  'TТ',
  'XХ',
]);

/** Digits and signs written for letters in names and domains (un1swap, m3tamask, $olana). */
const LEET = pairsOf(['0o', '1i', '3e', '4a', '5s', '7t', '8b', '@a', '$s', '|l']);

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

type Script = 'latin' | 'cyrillic' | 'other';
const scriptOf = (ch: string): Script =>
  LATIN.test(ch) ? 'latin' : CYRILLIC.test(ch) || GREEK.test(ch) ? 'cyrillic' : 'other';

/** A word's letters in the majority script, and whether it mixed look-alikes from another to get there. */
function foldWord(word: string): { word: string; mixed: boolean } {
  let latin = 0;
  let cyrillic = 0;
  for (const ch of word) {
    const script = scriptOf(ch);
    if (script === 'latin') latin += 1;
    else if (script === 'cyrillic') cyrillic += 1;
  }
  if (latin === 0 || cyrillic === 0) return { word, mixed: false };
  const table = latin >= cyrillic ? TO_LATIN : TO_CYRILLIC;
  let out = '';
  let folded = 0;
  for (const ch of word) {
    const to = table.get(ch);
    if (to !== undefined) folded += 1;
    out += to ?? ch;
  }
  return { word: out, mixed: folded > 0 };
}

export interface FoldedText {
  /** NFKC, every word in its own script. */
  cased: string;
  /** The same in lower case. */
  text: string;
  /** Words that mixed look-alike letters of two scripts. */
  mixedWords: number;
}

export function foldText(raw: string): FoldedText {
  let mixedWords = 0;
  const text = raw.normalize('NFKC').replace(WORD, (w) => {
    const folded = foldWord(w);
    if (folded.mixed && w.length >= 3) mixedWords += 1;
    return folded.word;
  });
  return { cased: text, text: text.toLowerCase(), mixedWords };
}

/**
 * What a name or domain looks like, whatever it is written with: every look-alike letter and digit as
 * the Latin letter it imitates, lower case, separators dropped. `un1swap`, `UNISWAP` and `unіswap`
 * (Cyrillic і) share the skeleton `uniswap`.
 */
export function skeleton(name: string): string {
  let out = '';
  for (const ch of name.normalize('NFKC')) {
    const latin = TO_LATIN.get(ch) ?? LEET.get(ch) ?? ch;
    out += latin;
  }
  return out.toLowerCase().replace(/[\s._-]+/g, '');
}

/** Levenshtein distance, stopping early once it exceeds `max` (names here are short). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (current[j] < best) best = current[j];
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}
