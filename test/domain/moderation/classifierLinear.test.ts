import { describe, it } from 'vitest';
import { classify } from '#shared/domain/moderation/classifier';
import { crafted, expectLinearTime } from '#test/support/linearTime';

/** Message text is user input up to 10,000 characters; every rule's pattern reads it. */
const M = 10_000;
const classifyText = (text: string) => classify({ text, sentAt: Date.now(), isNewMember: true, recent: [] });

describe('the moderation classifier runs in linear time', () => {
  it('costs no more on crafted messages than on a benign one of the same length', () => {
    const benign = crafted(M, 'hello everyone, how is the project going today? ');
    expectLinearTime(classifyText, benign, [
      { name: 'blanks', input: crafted(M, ' ') },
      { name: 'scam verbs without the noun', input: crafted(M, 'claim ') },
      { name: 'airdrops without a claim', input: crafted(M, 'airdrop ') },
      { name: 'DM without support', input: crafted(M, 'dm me ') },
      { name: 'negations', input: crafted(M, 'never claim airdrop ') },
      { name: 'hex without an address', input: crafted(M, '0x') },
      { name: 'mentions', input: crafted(M, '@a') },
      { name: 'host-like labels', input: crafted(M, 'a.') },
      { name: 'one long word', input: crafted(M, 'a') },
      { name: 'digits', input: crafted(M, '1') },
      { name: 'scheme repeated', input: crafted(M, 'http://') },
    ]);
  });
});
