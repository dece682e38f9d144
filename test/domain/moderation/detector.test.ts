import { describe, expect, it } from 'vitest';
import { EMPTY_CONTEXT, judge, spamFingerprint } from '#shared/domain/moderation/detector/detector';
import { editDistance, foldText, skeleton } from '#shared/domain/moderation/detector/letters';
import { lookalikeDomains, lookalikeHandles, impersonates } from '#shared/domain/moderation/detector/lookalikes';
import { readMessage } from '#shared/domain/moderation/detector/reading';
import { combine, emptyModel, modelEvidence, teach } from '#shared/domain/moderation/detector/textModel';
import { decodeModel, encodeModel } from '#shared/store/textModelCodec';
import { ruleSetOf, DEFAULT_COMMUNITY_RULES, mergeRules } from '#shared/domain/moderation/communityRules';

const rules = ruleSetOf(DEFAULT_COMMUNITY_RULES);
const judged = (text: string, isNewMember = false, ctx = EMPTY_CONTEXT) =>
  judge({ text, sentAt: 0, isNewMember, recent: [] }, rules, ctx);

describe('reading a message', () => {
  it.each([
    ['join t.me/acme_chat now', ['t.me']],
    ['visit moltworld.run or nerdsoneth.fun', ['moltworld.run', 'nerdsoneth.fun']],
    ['see https://www.Example.co.uk/path?q=1', ['example.co.uk']],
    ['version 1.2.3 and node.js', []],
  ])('finds the links a person would see in %j', (text, hosts) => {
    expect(readMessage(text).links.map((l) => l.host)).toEqual(hosts);
  });

  it.each([
    ['call 0871 873 8001 today', 1],
    ['+44 20 7946 0958', 1],
    ['call (555) 123-4567', 1],
    ['the 2026 roadmap has 12 items', 0],
    ['price 1.25 and 2,000 tokens', 0],
  ])('counts phone numbers in %j', (text, count) => {
    expect(readMessage(text).phoneNumbers).toBe(count);
  });

  it('counts wallet addresses of four chains, but not long ordinary words', () => {
    expect(readMessage('send to 0x52908400098527886E0F7030069857D2E4169EE7').walletAddresses).toBe(1);
    expect(readMessage('sol 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV').walletAddresses).toBe(1);
    expect(readMessage('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL is mine').walletAddresses).toBe(1);
    expect(readMessage('supercalifragilisticexpialidociousword').walletAddresses).toBe(0);
  });
});

describe('look-alike letters', () => {
  it('folds a word into its own script and counts the words that mixed', () => {
    // Latin o inside Russian words, Cyrillic а and е inside English ones.
    expect(foldText('Гoтoвы к рaбoте').text).toBe('готовы к работе');
    expect(foldText('Clаim yоur rеwаrd').text).toBe('claim your reward');
    expect(foldText('Clаim yоur rеwаrd').mixedWords).toBe(3);
    expect(foldText('plain words only').mixedWords).toBe(0);
  });

  it('gives names written with look-alikes one skeleton', () => {
    expect(skeleton('un1swap')).toBe('uniswap');
    expect(skeleton('UNІSWAP')).toBe('uniswap');
    expect(editDistance('uniswap', 'unisvvap', 2)).toBe(2);
    expect(editDistance('uniswap', 'somethingelse', 2)).toBe(3);
  });

  it('finds look-alike domains, handles and names, never the originals', () => {
    const link = (host: string) => ({ host, path: '' });
    expect(lookalikeDomains([link('uniswap-claim.xyz')], ['uniswap.org'])?.of).toBe('uniswap.org');
    expect(lookalikeDomains([link('un1swap.org')], ['uniswap.org'])?.host).toBe('un1swap.org');
    expect(lookalikeDomains([link('app.uniswap.org')], ['uniswap.org'])).toBeNull();
    expect(lookalikeDomains([link('uniswap-fans.com')], ['uniswap.org'], false)).toBeNull();
    expect(lookalikeHandles(['@uniswap_support'], ['@Uniswap'])?.of).toBe('Uniswap');
    expect(lookalikeHandles(['@uniswap'], ['@Uniswap'])).toBeNull();
    expect(impersonates(['acmeadmin'], ['AcmeAdmin'])).toBeNull();
    expect(impersonates(['Acme Admin'], ['acmeadmin'])).toBe('acmeadmin');
    expect(impersonates(['acme_adm1n'], ['acme_admin'])).toBe('acme_admin');
  });
});

describe('the score', () => {
  it('a scam phrase alone is severe; capitals alone never remove an established member’s message', () => {
    expect(judged('Claim your airdrop now').weight).toBe('severe');
    expect(judged('THIS IS THE GREATEST PROJECT I HAVE EVER SEEN').weight).toBeNull();
  });

  it('a short question asks, it does not pitch: its phrases count for little', () => {
    expect(judged('where do I claim the airdrop?').weight).toBeNull();
    expect(judged('Claim the airdrop now at our site').weight).not.toBeNull();
    expect(judged('Want to earn $500 a day from home? DM me').weight).not.toBeNull();
  });

  it('weak signals add up: a phone number alone stays, with a prize claim it goes', () => {
    expect(judged('my number is 0871 873 8001').weight).toBeNull();
    expect(judged('You have won a prize, call 0871 873 8001 to claim').weight).not.toBeNull();
  });

  it('one link is one signal, however many link signals it fires', () => {
    const signals = judged('https://t.me/+invite', true).signals.map((s) => s.id);
    expect(signals.filter((id) => ['link', 'invite_link', 'chat_link', 'bare_link'].includes(id))).toHaveLength(1);
  });

  it('sensitivity moves the thresholds; a switched-off rule fires no signal', () => {
    const text = 'Free giveaway today';
    const at = (sensitivity: 'low' | 'high') =>
      judge(
        { text, sentAt: 0, isNewMember: true, recent: [] },
        ruleSetOf(mergeRules(DEFAULT_COMMUNITY_RULES, { sensitivity })),
        EMPTY_CONTEXT,
      ).weight;
    expect(at('low')).toBeNull();
    expect(at('high')).not.toBeNull();
    const off = ruleSetOf(mergeRules(DEFAULT_COMMUNITY_RULES, { rules: { phone_number: { enabled: false } } }));
    expect(
      judge({ text: 'call 0871 873 8001', sentAt: 0, isNewMember: false, recent: [] }, off, EMPTY_CONTEXT).signals,
    ).toEqual([]);
  });

  it('known phishing hosts and shared confirmations count when the context holds them', () => {
    const text = 'check this out evil-wallet.example.com';
    const reading = readMessage(text);
    const context = { ...EMPTY_CONTEXT, phishingHosts: new Set(['evil-wallet.example.com']) };
    expect(judge({ text, sentAt: 0, isNewMember: false, recent: [] }, rules, context).signals[0].id).toBe(
      'phishing_domain',
    );
    const shared = { ...EMPTY_CONTEXT, knownSpam: new Set([spamFingerprint(reading)]) };
    expect(
      judge({ text, sentAt: 0, isNewMember: false, recent: [] }, rules, shared).signals.map((s) => s.id),
    ).toContain('known_spam');
  });
});

describe('the text model', () => {
  const spam = ['the lottery pool is open, reserve a seat', 'reserve your lottery seat tonight'];
  const ham = ['the community call is tonight', 'see you at the call'];
  const taught = () =>
    teach(emptyModel(), [
      ...spam.map((t) => ({ reading: readMessage(t), label: 'spam' as const })),
      ...ham.map((t) => ({ reading: readMessage(t), label: 'ham' as const })),
    ]);

  it('says nothing until both classes are taught, then leans the way it was taught', () => {
    const onlySpam = teach(emptyModel(), [{ reading: readMessage(spam[0]), label: 'spam' }]);
    expect(modelEvidence(onlySpam, readMessage('lottery seat'))).toBe(0);
    expect(modelEvidence(taught(), readMessage('lottery seat reserve'))).toBeGreaterThan(0);
    expect(modelEvidence(taught(), readMessage('the call tonight'))).toBeLessThan(0);
  });

  it('encodes and decodes to the same counts, and combines models by adding them', () => {
    const model = taught();
    const back = decodeModel(encodeModel(model));
    expect(back.examples).toEqual(model.examples);
    expect(back.features).toEqual(model.features);
    expect([...back.counts]).toEqual([...model.counts].sort(([a], [b]) => a - b));
    const both = combine(model, model);
    expect(both.examples).toEqual([4, 4]);
  });
});
