import { describe, it } from 'vitest';
import { EMPTY_CONTEXT, judge } from '#shared/domain/moderation/detector/detector';
import { starterModel } from '#shared/domain/moderation/detector/starter';
import { DEFAULT_RULES } from '#shared/domain/moderation/rules';
import { crafted, expectLinearTime } from '#test/support/linearTime';

/** Message text is user input up to 10,000 characters; every signal's pattern, linkify-it and the model read it. */
const M = 10_000;
const context = { ...EMPTY_CONTEXT, model: starterModel() };
const judgeText = (text: string) =>
  judge({ text, sentAt: 0, isNewMember: true, recent: [], username: 'a'.repeat(50) }, DEFAULT_RULES, context);

describe('the detector runs in linear time', () => {
  it('costs no more on crafted messages than on a benign one of the same length', () => {
    const benign = crafted(M, 'hello everyone, how is the project going today? ');
    expectLinearTime(judgeText, benign, [
      { name: 'digits (phone numbers)', input: crafted(M, '1') },
      { name: 'digit groups', input: crafted(M, '12 ') },
      { name: 'digits and brackets', input: crafted(M, '(1') },
      { name: 'base58 run', input: crafted(M, 'A1b') },
      { name: 'host-like labels', input: crafted(M, 'a.') },
      { name: 'bare domains', input: crafted(M, 'a.com ') },
      { name: 'scheme repeated', input: crafted(M, 'http://') },
      { name: 'deploy without a ticker', input: crafted(M, 'deploy ') },
      { name: 'recover without funds', input: crafted(M, 'recover ') },
      { name: 'text without a number', input: crafted(M, 'text to ') },
      { name: 'earn without an amount', input: crafted(M, 'earn ') },
      { name: 'Russian earnings words', input: crafted(M, 'заработок ') },
      { name: 'mixed scripts', input: crafted(M, 'aа') },
      { name: 'cashtags', input: crafted(M, '$a') },
      { name: 'emoji', input: crafted(M, '🚀') },
      { name: 'one long word', input: crafted(M, 'a') },
    ]);
  });
});
