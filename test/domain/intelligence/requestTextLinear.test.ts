import { describe, expect, it } from 'vitest';
import { parseRequestText } from '#shared/domain/intelligence/requestText';
import { PACKAGES } from '#shared/domain/intelligence/packages';
import { parseAmount } from '#shared/domain/intelligence/slots';
import { crafted, expectLinearTime } from '#test/support/linearTime';

/** request_text is read by the extractors of every package; the schema allows 2,000 characters. */
const readAllPackages = (text: string) => Object.values(PACKAGES).map((pkg) => parseRequestText(pkg, text));
const R = 2000;

describe('intelligence request_text extraction runs in linear time', () => {
  it('costs no more on crafted requests than on a benign one of the same length', () => {
    const benign = crafted(
      R,
      'Find 25 seed-stage DeFi VCs in Singapore writing $500k-$2M cheques, intros to Paradigm. ',
    );
    expectLinearTime(readAllPackages, benign, [
      // Took 10 s: a money amount followed by a long run of blanks (adjacent \s* splitting the run every way).
      { name: 'amount then blanks', input: crafted(R, ' ', '$1', 'x') },
      { name: 'digits', input: crafted(R, '1', '', 'x') },
      { name: 'digits and commas', input: crafted(R, '1,', '$', 'x') },
      { name: 'digits and dots', input: crafted(R, '1.', '', 'x') },
      { name: 'dollar signs and blanks', input: crafted(R, '$ ') },
      { name: 'numbers before followers', input: crafted(R, '1 ', '', 'x') },
      { name: 'host-like dashes', input: crafted(R, 'a-', '', '.') },
      { name: 'names after at', input: crafted(R, 'A ', 'at ') },
    ]);
  });

  it('still reads amounts, thresholds, counts and names as before', () => {
    expect(
      readAllPackages('Find 25 seed-stage DeFi VCs in Singapore writing $500k-$2M cheques').find(
        (s) => 'min_investment' in s,
      ),
    ).toMatchObject({
      min_investment: 500_000,
      max_investment: 2_000_000,
      limit: 25,
    });
    expect(readAllPackages('KOLs with 10k+ followers').find((s) => 'min_followers' in s)).toMatchObject({
      min_followers: 10_000,
    });
    expect(readAllPackages('over 1,500,000 followers').find((s) => 'min_followers' in s)).toMatchObject({
      min_followers: 1_500_000,
    });
  });
});

describe('slot amounts parse in linear time', () => {
  it('reads "2M USD" and costs no more on a value padded with blanks than on a benign one', () => {
    expect(parseAmount('2M USD')).toBe(2_000_000);
    expect(parseAmount('$1.5m dollars')).toBe(1_500_000);
    expect(parseAmount('usd')).toBeUndefined();
    const L = 20_000;
    // Benign: a valid amount with the same blank run ("1 … k" is 1,000); adversarial: the run then a word that is no unit.
    const benign = crafted(L, ' ', '1', 'k');
    expect(parseAmount(benign)).toBe(1000);
    expectLinearTime(parseAmount, benign, [
      { name: 'blanks before a non-currency word', input: crafted(L, ' ', '1', 'x') },
      { name: 'blanks before a currency word', input: crafted(L, ' ', '1 usd', 'x') },
    ]);
  });
});
