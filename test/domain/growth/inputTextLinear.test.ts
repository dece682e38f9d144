import { describe, expect, it } from 'vitest';
import { parseInputText } from '#shared/domain/growth/inputText';
import { normalizeAssets } from '#shared/domain/growth/normalize';
import {
  hasHttpScheme,
  looksLikeDomainOrUrl,
  looksLikeEmail,
  mentionsLinkedin,
  stripWrappers,
} from '#shared/domain/growth/valueShapes';
import { crafted, expectLinearTime } from '#test/support/linearTime';

const N = 50_000;
/** What resolve does with input_text: parse, then normalise. */
const resolveInput = (text: string) => {
  const parsed = parseInputText(text);
  return normalizeAssets(parsed.companies, parsed.contacts);
};

describe('growth input_text parsing runs in linear time', () => {
  it('costs no more on crafted 50,000-character inputs than on a benign CSV of the same length', () => {
    const benign = crafted(N, 'Acme Labs,acme-labs.io,ada@acme-labs.io\n', 'Company,Domain,Email\n');
    expectLinearTime(resolveInput, benign, [
      // The inputs that took seconds: trailing-wrapper trimming, the e-mail shape, a quote per character of a padded cell.
      { name: 'closers after one value', input: crafted(N, '>', '', 'x') },
      { name: 'quotes inside a value', input: crafted(N, "'", 'a', 'x') },
      { name: 'e-mail with endless labels', input: crafted(N, 'b.', 'a@', '@') },
      { name: 'padded cell of quotes', input: crafted(N, '"', `x,${' '.repeat(25_000)}a`) },
      // Other shapes a backtracking pattern would choke on.
      { name: 'domain of endless labels', input: crafted(N, 'a.', '', '!') },
      // One '@': an e-mail by shape, then normalised (normalize.ts) with its endless labels.
      { name: 'e-mail of endless labels, bad ending', input: crafted(N, 'b.', 'a@', '-') },
      { name: 'e-mail of endless dashed labels', input: crafted(N, 'b-', 'a@b.', '-') },
      { name: 'URL of endless labels', input: crafted(N, 'a.', 'http://', ':') },
      { name: 'dashes', input: crafted(N, '-', 'a', '!') },
      { name: 'white space runs', input: crafted(N, ' ', 'Acme,', 'x') },
      { name: 'one wide line over many short ones', input: crafted(N, 'a\n', `${','.repeat(5_000)}\n`) },
      { name: 'LinkedIn links', input: crafted(N, 'linkedin.com/') },
    ]);
  });

  it('refuses a text of only separators with a 400 validation error naming input_text (was a 500)', () => {
    for (const text of [',,,,,', '|||||', ';;\t;;', '"', ' , ; , ']) {
      expect(() => parseInputText(text), JSON.stringify(text)).toThrow(
        expect.objectContaining({
          code: 'validation_error',
          details: [expect.objectContaining({ path: 'input_text' })],
        }),
      );
    }
    expect(parseInputText(' \n\n ').format).toBe('empty');
  });
});

describe('the value scanners decide as the regular expressions they replace', () => {
  // The former patterns, safe as an oracle on short strings.
  const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
  const DOMAIN_OR_URL = /^(https?:\/\/)?(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/\S*)?$/i;
  const LINKEDIN = /linkedin\.com\//i;
  const WRAPPERS = /^[<("']+|[>)"']+$/g;
  const HTTP = /^https?:\/\//i;

  it('agrees on every short string over an alphabet of the characters that matter', () => {
    const alphabet = [
      'a',
      'Z',
      '7',
      '-',
      '.',
      '@',
      ':',
      '/',
      ' ',
      ',',
      ';',
      '<',
      '>',
      '(',
      ')',
      '"',
      "'",
      'h',
      't',
      'p',
      's',
      'é',
      '\t',
      'w',
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const samples = [
      'http://a.b',
      'HTTPS://x.io:80/p',
      'https://a.b:/x',
      'www.com',
      'a.b.',
      'a..b',
      'linkedin.com/in/x',
      'a@b.c',
      '@b.c',
      'a@.c',
      'a@b.',
      'a@b@c.d',
    ];
    for (let i = 0; i < 20_000; i++)
      samples.push(
        Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
          '',
        ),
      );
    const disagreements = samples.filter(
      (s) =>
        looksLikeEmail(s) !== EMAIL.test(s) ||
        looksLikeDomainOrUrl(s) !== DOMAIN_OR_URL.test(s) ||
        mentionsLinkedin(s) !== LINKEDIN.test(s) ||
        hasHttpScheme(s) !== HTTP.test(s) ||
        stripWrappers(s) !== s.replace(WRAPPERS, ''),
    );
    expect(disagreements).toEqual([]);
    // The sample reaches both answers of each scanner.
    expect(samples.some((s) => EMAIL.test(s)) && samples.some((s) => DOMAIN_OR_URL.test(s))).toBe(true);
  });
});
