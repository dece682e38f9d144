import { describe, expect, it } from 'vitest';
import { classify, fingerprintOf, type MessageToClassify } from '#shared/domain/moderation/classifier';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const message = (text: string, overrides: Partial<MessageToClassify> = {}): MessageToClassify => ({
  text,
  sentAt: T0,
  isNewMember: false,
  recent: [],
  ...overrides,
});
const newMember = (text: string) => message(text, { isNewMember: true });
/** `n` earlier messages from the same sender, one a second, the last one a second ago. */
const earlier = (n: number, text = 'hello', spacingMs = 1000) =>
  Array.from({ length: n }, (_, i) => ({ at: T0 - (n - i) * spacingMs, fingerprint: fingerprintOf(text) }));

describe('classify: a table of real-looking messages', () => {
  const cases: [string, MessageToClassify, string | null][] = [
    // Legitimate traffic passes.
    [
      'community-call announcement',
      message(
        'Community call tomorrow at 16:00 UTC on Discord stage: roadmap Q1, grants round 3 and an AMA with the core team. Bring questions!',
      ),
      null,
    ],
    [
      'old member sharing a docs link',
      message('The answer is in the docs: https://docs.example.org/staking/withdrawals#cooldown'),
      null,
    ],
    [
      'price question',
      message('what do you think about the price of $TOKEN after the listing? is 0.35 realistic?'),
      null,
    ],
    [
      'safety reminder mentions the seed phrase',
      message('Reminder: admins will never DM you first. Never share your seed phrase with anyone.'),
      null,
    ],
    [
      'warning about wallet drainers',
      message('PSA: the team will never ask you to connect your wallet on a site from a DM.'),
      null,
    ],
    [
      'new member saying hi',
      newMember('gm everyone, just found this project through the hackathon, excited to build'),
      null,
    ],
    ['a few mentions', message('@alice @bob can you review the PR?'), null],
    ['short caps', message('GM GM'), null],
    [
      'old member pasting a contract address',
      message('Verified contract is 0x52908400098527886E0F7030069857D2E4169EE7 as pinned'),
      null,
    ],
    ['a normal chat pace', message('next one', { recent: earlier(4, 'chat', 3000) }), null],
    ['saying thanks twice', message('thanks!', { recent: earlier(1, 'thanks!') }), null],

    // Scam phrases, from anyone.
    ['airdrop claim', message('🎁 Claim your $ARB airdrop now before it ends at arb-claim.xyz'), 'scam_phrase'],
    ['free airdrop', message('FREE airdrop for early supporters, details in bio'), 'scam_phrase'],
    ['airdrop is live', message('The official airdrop is live, claim here fast'), 'scam_phrase'],
    [
      'connect wallet',
      message('Having issues? Connect your wallet to the validator dapp to fix sync errors'),
      'scam_phrase',
    ],
    ['DM for support', message('Hello sir, DM me for support with your withdrawal'), 'scam_phrase'],
    [
      'a negation that does not negate',
      message("Don't wait, DM me for support before the bridge closes"),
      'scam_phrase',
    ],
    ['contact support via DM', message('Please contact support via DM, admins are waiting'), 'scam_phrase'],
    ['seed phrase request', message('To restore access, enter your 12 word seed phrase in the form'), 'scam_phrase'],
    ['private key request', message('send me your private key and I will recover the funds'), 'scam_phrase'],
    ['guaranteed returns', message('Join now, guaranteed profit every day'), 'scam_phrase'],

    // New members only.
    ['new member posting a link', newMember('check this out https://bit.ly/3xYzAbC'), 'link'],
    ['new member posting a bare domain', newMember('best presale at moonpresale.io'), 'link'],
    ['new member posting a Telegram invite', newMember('join us t.me/+AbCdEfGhIjK'), 'invite_link'],
    ['new member posting a Discord invite', newMember('real alpha: discord.gg/alphacalls'), 'invite_link'],
    [
      'new member posting an EVM address',
      newMember('send 0.1 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 to get 1 ETH back'),
      'wallet_address',
    ],
    [
      'new member posting a BTC address',
      newMember('donate: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'),
      'wallet_address',
    ],

    // Behaviour.
    ['flood: sixth message in ten seconds', message('buy buy', { recent: earlier(5, 'x', 1500) }), 'flood'],
    [
      'the same message a third time',
      message('Best signals group, ask me', { recent: earlier(2, 'best signals group, ask me!', 30_000) }),
      'repeated_message',
    ],
    ['mass mentions', message('@a1 @b2 @c3 @d4 @e5 @f6 look at this'), 'mass_mentions'],
    ['shouting', message('WHY IS NOBODY ANSWERING MY QUESTION ABOUT THE BRIDGE'), 'shouting'],
    ['blocked word', message('join my pump group for 10x'), 'blocked_word'],
  ];

  it.each(cases)('%s', (_label, msg, expected) => {
    expect(classify(msg)?.rule ?? null).toBe(expected);
  });

  it('gives a reason a moderator can read', () => {
    expect(classify(message('DM me for support please'))).toEqual({
      rule: 'scam_phrase',
      weight: 'severe',
      reason: 'Scam phrase: DM for support',
    });
    expect(classify(message('x', { recent: earlier(5, 'y', 1000) }))?.reason).toBe(
      '6 messages in 10 seconds (limit 5)',
    );
  });

  it('forgets messages older than the window', () => {
    const old = earlier(5, 'same', 60_000);
    expect(classify(message('next', { recent: old }))).toBeNull();
  });

  it('treats text differing only in case, spacing and punctuation as identical', () => {
    expect(fingerprintOf('Best  signals, ask ME!')).toBe(fingerprintOf('best signals ask me'));
    expect(fingerprintOf('best signals')).not.toBe(fingerprintOf('worst signals'));
  });
});
