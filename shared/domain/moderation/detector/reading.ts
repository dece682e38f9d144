/**
 * A message as the detector reads it: folded text and words, the links a person would see (with or
 * without a scheme, any top-level domain: linkify-it with the `tlds` list), mentions, addresses,
 * phone numbers and how it is written. Read once, then every signal looks at the reading.
 */
import { LinkifyIt } from 'linkify-it';
import tlds from 'tlds';
import { foldText } from './letters';

let linkify: LinkifyIt | undefined;
/** Compiled on first use: its pattern of every top-level domain costs milliseconds a cold start need not pay. */
const linkifier = () => {
  linkify ??= new LinkifyIt({ fuzzyLink: true, fuzzyEmail: false }).tlds(tlds);
  return linkify;
};

export interface Link {
  /** Lower case, without `www.`. */
  host: string;
  /** The path and query as written (lower case), '' when none. */
  path: string;
}

export interface Reading {
  raw: string;
  /** NFKC, look-alike letters folded into each word's script. */
  cased: string;
  /** The same in lower case. */
  text: string;
  words: string[];
  links: Link[];
  /** Accounts named: `@name`, `u/name`; lower case, each once. */
  mentions: string[];
  walletAddresses: number;
  phoneNumbers: number;
  /** Words that mixed letters of two scripts to look like something else. */
  mixedWords: number;
  letters: number;
  upperLetters: number;
  emojis: number;
}

const WORDS = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const MENTION = /(?<![\w@])@\w{2,}|(?<![\w/])\/?u\/[\w-]{3,20}/gi;
/** Base58 runs that are words, not keys: a key mixes digits with both cases. */
const looksLikeKey = (s: string) => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);
const ADDRESSES: { pattern: RegExp; plausible?: (s: string) => boolean }[] = [
  { pattern: /\b0x[a-fA-F0-9]{40}\b/g }, // EVM
  { pattern: /\b(?:bc1[ac-hj-np-z02-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})\b/g, plausible: looksLikeKey }, // Bitcoin
  { pattern: /\bT[1-9A-HJ-NP-Za-km-z]{33}\b/g }, // TRON
  { pattern: /(?<![\w/.])[1-9A-HJ-NP-Za-km-z]{32,44}(?![\w/.])/g, plausible: looksLikeKey }, // Solana
];
/** Distinct addresses: a TRON address is also a plausible Solana one, and counts once. */
const addressCount = (raw: string) =>
  new Set(
    ADDRESSES.flatMap(({ pattern, plausible }) => (raw.match(pattern) ?? []).filter((s) => plausible?.(s) ?? true)),
  ).size;
/**
 * A phone number's span: an optional +, then digits, spaces, brackets, dots and dashes, ending on a
 * digit (how many digits, and whether they make a number, is counted after the match). The run is
 * bounded, so however the match is retried it stays linear in the text.
 */
const PHONE = /(?<![\w+.,/-])\+?[\d(][\d ().-]{7,30}\d(?!\w)/g;
const EMOJI = /\p{Extended_Pictographic}/gu;

function phoneNumbers(text: string): number {
  let count = 0;
  for (const found of text.matchAll(PHONE)) {
    const digits = found[0].replace(/\D/g, '');
    if (digits.length >= 9 && digits.length <= 15 && !/^(19|20)\d{6}$/.test(digits)) count += 1;
  }
  return count;
}

function linksOf(text: string): Link[] {
  const found = linkifier().match(text) ?? [];
  return found.flatMap((m) => {
    if (m.schema === 'mailto:') return [];
    try {
      const url = new URL(m.url);
      return [
        { host: url.hostname.toLowerCase().replace(/^www\./, ''), path: `${url.pathname}${url.search}`.toLowerCase() },
      ];
    } catch {
      return [];
    }
  });
}

export function readMessage(raw: string): Reading {
  const folded = foldText(raw);
  const letters = raw.match(/\p{L}/gu) ?? [];
  return {
    raw,
    cased: folded.cased,
    text: folded.text,
    words: folded.text.match(WORDS) ?? [],
    links: linksOf(raw.normalize('NFKC')),
    mentions: [...new Set((raw.match(MENTION) ?? []).map((m) => m.toLowerCase().replace(/^\/?u\//, 'u/')))],
    walletAddresses: addressCount(raw),
    phoneNumbers: phoneNumbers(raw),
    mixedWords: folded.mixedWords,
    letters: letters.length,
    upperLetters: letters.filter((c) => c !== c.toLowerCase()).length,
    emojis: raw.match(EMOJI)?.length ?? 0,
  };
}
