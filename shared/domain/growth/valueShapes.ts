/**
 * What a pasted value looks like (an e-mail address, a domain or URL, a LinkedIn link), decided by
 * hand-written scanners: each reads its input once, so a crafted 50,000-character value costs no more
 * than a benign one of the same length. (The regular expressions these replace backtracked
 * quadratically, e.g. on `a@b.b.b.…b@`.) Pure.
 */

const isSpace = (ch: string) => ch.trim() === '';
const isLabelChar = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45; // a-z A-Z 0-9 -
const isDigit = (code: number) => code >= 48 && code <= 57;

/** `local@domain.tld` with no white space, comma or semicolon, exactly one `@` and a dot inside the domain. */
export function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 1 || value.indexOf('@', at + 1) !== -1) return false;
  for (const ch of value) if (ch === ',' || ch === ';' || isSpace(ch)) return false;
  const domainLength = value.length - at - 1;
  const dot = value.indexOf('.', at + 2);
  return dot !== -1 && dot - at - 1 <= domainLength - 2;
}

const schemeLength = (value: string): number => {
  const head = value.slice(0, 8).toLowerCase();
  return head.startsWith('https://') ? 8 : head.startsWith('http://') ? 7 : 0;
};

export const hasHttpScheme = (value: string): boolean => schemeLength(value) > 0;

/**
 * An optional http(s) scheme, a host of two or more labels of letters, digits and dashes, an
 * optional `:port` and an optional path without white space.
 */
export function looksLikeDomainOrUrl(value: string): boolean {
  let i = schemeLength(value);
  let labels = 0;
  while (true) {
    const start = i;
    while (i < value.length && isLabelChar(value.charCodeAt(i))) i++;
    if (i === start) return false;
    labels += 1;
    if (value[i] !== '.') break;
    i++;
  }
  if (labels < 2) return false;
  if (value[i] === ':') {
    const start = ++i;
    while (i < value.length && isDigit(value.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  if (i === value.length) return true;
  if (value[i] !== '/') return false;
  for (const ch of value.slice(i + 1)) if (isSpace(ch)) return false;
  return true;
}

export const mentionsLinkedin = (value: string): boolean => value.toLowerCase().includes('linkedin.com/');

const OPENERS = new Set(['<', '(', '"', "'"]);
const CLOSERS = new Set(['>', ')', '"', "'"]);

/** `<acme.com>`, `("a@b.io")` → the value inside: leading openers and trailing closers dropped. */
export function stripWrappers(token: string): string {
  let start = 0;
  while (start < token.length && OPENERS.has(token[start])) start++;
  let end = token.length;
  while (end > start && CLOSERS.has(token[end - 1])) end--;
  return token.slice(start, end);
}
