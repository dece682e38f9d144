/**
 * Contract 14 through the HTTP API: check judges without acting, examples teach the community's own
 * model (and nobody else's), DELETE forgets, undo teaches, audit entries carry score and signals,
 * official domains and handles make look-alikes count, and shared spam needs owners who agree.
 */
import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';

const api = await startTestApi();
const BASE = '/integrations/moderation';

async function community(key?: string) {
  const owner = key ? { key } : await api.newUser({ credits: 5000 });
  const created = await api.call('POST', `${BASE}/communities`, {
    key: owner.key,
    body: { name: 'Chat', project_name: 'Acme', type: 'reddit' },
  });
  expect(created.status).toBe(201);
  return { key: owner.key as string, id: created.body.id as string, token: created.body.activation_token as string };
}

const check = async (key: string, id: string, messages: object[]) =>
  api.call('POST', `${BASE}/communities/${id}/check`, { key, body: { messages } });
const teach = async (key: string, id: string, examples: object[]) =>
  api.call('POST', `${BASE}/communities/${id}/examples`, { key, body: { examples } });
const events = async (c: { key: string; id: string }, list: object[]) => {
  const res = await api.call('POST', `${BASE}/communities/${c.id}/events`, { key: c.key, body: { events: list } });
  expect(res.status).toBe(200);
  return res.body.decisions;
};
const scoreOf = async (key: string, id: string, text: string) =>
  (await check(key, id, [{ text }])).body.results[0].score as number;

/** An ordinary-looking message whose fate only teaching decides. */
const PLAIN = 'the weekly lottery pool opens tonight for all members';
const PLAIN_AGAIN = 'the weekly lottery pool opens tonight for every member';

describe('POST /communities/{id}/check', () => {
  it('judges each message in order, with verdict, action, score and signals, and records nothing', async () => {
    const { key, id } = await community();
    const res = await check(key, id, [
      { text: 'Great update, thanks team!' },
      { text: 'Claim your airdrop now, connect your wallet at acme-drop.xyz' },
      { text: 'look https://spam.example.com', is_new_member: true },
    ]);
    expect(res.status).toBe(200);
    const [clean, scam, link] = res.body.results;
    expect(clean).toMatchObject({ verdict: 'ham', action: 'allow' });
    expect(clean.score).toBeLessThan(0.5);
    expect(scam).toMatchObject({ verdict: 'spam', action: 'mute' });
    expect(scam.score).toBeGreaterThan(0.97);
    expect(scam.signals[0].id).toBe('scam_phrase');
    expect(link).toMatchObject({ verdict: 'spam', action: 'warn' });
    expect(link.signals.map((s: { id: string }) => s.id)).toContain('link');
    // Nothing counted, nothing in the audit log.
    const st = await api.call('GET', `${BASE}/status?community_id=${id}`, { key });
    expect(st.body.metrics.messages_scanned).toBe(0);
    expect(st.body.audit_logs).toEqual([]);
  });

  it('lets a whitelisted sender through as the community would, with the score it would have had', async () => {
    const { key, id } = await community();
    await api.call('PUT', `${BASE}/communities/${id}`, { key, body: { whitelisted_usernames: ['@acme_mod'] } });
    const text = 'Claim your airdrop now, connect your wallet at acme-drop.xyz';
    const [mod, stranger] = (
      await check(key, id, [
        { text, username: 'acme_mod' },
        { text, username: 'stranger' },
      ])
    ).body.results;
    expect(mod).toMatchObject({ verdict: 'ham', action: 'allow' });
    expect(mod.score).toBe(stranger.score);
    expect(stranger.verdict).toBe('spam');
  });

  it('capital letters alone never remove an established member’s message', async () => {
    const { key, id } = await community();
    const [shout] = (await check(key, id, [{ text: 'THIS IS THE BEST PROJECT I HAVE SEEN ALL YEAR' }])).body.results;
    expect(shout.verdict).toBe('ham');
  });

  it('sensitivity moves the thresholds', async () => {
    const { key, id } = await community();
    const text = 'Free giveaway today';
    const at = async (sensitivity: string) => {
      await api.call('PUT', `${BASE}/communities/${id}/rules`, { key, body: { sensitivity } });
      return (await check(key, id, [{ text, is_new_member: true }])).body.results[0].action as string;
    };
    expect(await at('low')).toBe('allow');
    expect(await at('high')).not.toBe('allow');
  });

  it('look-alikes of the official domains and handles count; the originals never do', async () => {
    const { key, id } = await community();
    const put = await api.call('PUT', `${BASE}/communities/${id}/rules`, {
      key,
      body: { official_domains: ['uniswap.org'], official_handles: ['@Uniswap'] },
    });
    expect(put.status).toBe(200);
    const res = await check(key, id, [
      { text: 'Read the docs at app.uniswap.org' },
      { text: 'Read the docs at uniswap-claim.xyz' },
      { text: 'Read the docs at un1swap.org' },
      { text: 'Ask @Uniswap_Support for help' },
      { text: 'Ask @Uniswap for help' },
      { text: 'Our support team can help you', username: 'uniswap_helpdesk' },
    ]);
    const ids = res.body.results.map((r: { signals: { id: string }[] }) => r.signals.map((s) => s.id));
    expect(ids[0]).not.toContain('lookalike_domain');
    expect(ids[0]).not.toContain('link');
    expect(ids[1]).toContain('lookalike_domain');
    expect(ids[2]).toContain('lookalike_domain');
    expect(res.body.results[1].verdict).toBe('spam');
    expect(ids[3]).toContain('lookalike_handle');
    expect(ids[4]).not.toContain('lookalike_handle');
    expect(ids[5]).toContain('impersonation');
  });

  it('folds look-alike letters before matching, and counts words that mix alphabets', async () => {
    const { key, id } = await community();
    // Cyrillic а, е, о and с inside Latin words.
    const [disguised] = (await check(key, id, [{ text: 'Cоnnеct yоur wаllеt to rесеive the rewаrd' }])).body.results;
    expect(disguised.signals.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining(['scam_phrase', 'mixed_script']),
    );
    expect(disguised.verdict).toBe('spam');
  });

  it('rejects bad input with 400 and another owner’s community with 404', async () => {
    const { key, id } = await community();
    for (const body of [
      { messages: [] },
      { messages: Array.from({ length: 101 }, () => ({ text: 'hi' })) },
      { messages: [{ text: '' }] },
      { messages: [{ text: 'x'.repeat(4097) }] },
      { messages: [{ text: 'hi', extra: 1 }] },
    ]) {
      const res = await api.call('POST', `${BASE}/communities/${id}/check`, { key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    const other = await api.newUser();
    expect((await check(other.key, id, [{ text: 'hi' }])).status).toBe(404);
    expect((await teach(other.key, id, [{ text: 'hi', label: 'spam' }])).status).toBe(404);
    expect((await api.call('DELETE', `${BASE}/communities/${id}/examples`, { key: other.key })).status).toBe(404);
  });
});

describe('POST|DELETE /communities/{id}/examples', () => {
  it('a taught example changes the next verdict; DELETE forgets it', async () => {
    const { key, id } = await community();
    const before = await scoreOf(key, id, PLAIN_AGAIN);
    const taught = await teach(key, id, [
      { text: PLAIN, label: 'spam' },
      { text: 'lottery pool tonight, members join the weekly pool', label: 'spam' },
      { text: 'see you at the community call tonight', label: 'ham' },
    ]);
    expect(taught.status).toBe(200);
    expect(taught.body).toEqual({ accepted: 3, examples_total: 3 });
    const after = await scoreOf(key, id, PLAIN_AGAIN);
    expect(after).toBeGreaterThan(before);
    const more = await teach(key, id, [{ text: 'one more ordinary message', label: 'ham' }]);
    expect(more.body.examples_total).toBe(4);

    expect((await api.call('DELETE', `${BASE}/communities/${id}/examples`, { key })).status).toBe(204);
    expect(await scoreOf(key, id, PLAIN_AGAIN)).toBe(before);
  });

  it('what one account teaches changes only its own communities', async () => {
    const victim = await community();
    const attacker = await community();
    const scam = 'Claim your airdrop now, connect your wallet at acme-drop.xyz';
    // A text no other test teaches (shared confirmations are deployment-wide).
    const plain = `the monthly quiz ${Date.now()} starts at noon for all members`;
    const before = (await check(victim.key, victim.id, [{ text: scam }, { text: plain }])).body.results;
    // The attacker teaches the scam as ham and the victim's ordinary message as spam, many times over.
    const poison = Array.from({ length: 200 }, (_, i) => ({ text: `${scam} ${i}`, label: 'ham' }));
    expect((await teach(attacker.key, attacker.id, poison)).status).toBe(200);
    expect((await teach(attacker.key, attacker.id, [{ text: plain, label: 'spam' }])).status).toBe(200);
    // A second community of the same account agrees with the first: still one owner.
    const second = await community(attacker.key);
    expect((await teach(attacker.key, second.id, [{ text: plain, label: 'spam' }])).status).toBe(200);
    const after = (await check(victim.key, victim.id, [{ text: scam }, { text: plain }])).body.results;
    expect(after).toEqual(before);
    // The attacker's own community did learn.
    const own = (await check(attacker.key, attacker.id, [{ text: scam }])).body.results[0];
    expect(own.score).toBeLessThan(before[0].score);
  });

  it('spam confirmed by two other owners counts in a third owner’s community, unless it opts out', async () => {
    const text = `the weekly lottery pool ${Date.now()} opens tonight, reserve your seat`;
    const third = await community();
    const before = (await check(third.key, third.id, [{ text }])).body.results[0];
    expect(before.signals.map((s: { id: string }) => s.id)).not.toContain('known_spam');
    for (let i = 0; i < 2; i++) {
      const owner = await community();
      expect((await teach(owner.key, owner.id, [{ text, label: 'spam' }])).status).toBe(200);
    }
    const after = (await check(third.key, third.id, [{ text }])).body.results[0];
    expect(after.signals.map((s: { id: string }) => s.id)).toContain('known_spam');
    expect(after.score).toBeGreaterThan(before.score);
    await api.call('PUT', `${BASE}/communities/${third.id}/rules`, {
      key: third.key,
      body: { rules: { shared_spam: { enabled: false } } },
    });
    const optedOut = (await check(third.key, third.id, [{ text }])).body.results[0];
    expect(optedOut.signals.map((s: { id: string }) => s.id)).not.toContain('known_spam');
  });

  it('a sender banned in communities of two other owners counts against their next message', async () => {
    const spammer = `u-spammer-${Date.now()}`;
    const say = (event_id: string, text: string, minutes: number) => ({
      event_id,
      type: 'message',
      user: { id: spammer, username: 'spammer' },
      text,
      sent_at: new Date(Date.parse('2026-11-22T10:00:00.000Z') + minutes * 60_000).toISOString(),
    });
    const activated = async (key?: string) => {
      const c = await community(key);
      const activation = { event_id: 'act', type: 'activation', user: { id: 'bridge' }, token: c.token };
      await events(c, [{ ...activation, sent_at: '2026-11-22T09:00:00.000Z' }]);
      return c;
    };
    const third = await activated();
    const ordinary = 'what time is the community call?';
    const before = await events(third, [say('m0', ordinary, 0)]);
    expect(before[0].signals.map((x: { id: string }) => x.id)).not.toContain('known_spammer');
    const first = await activated();
    // The same account's second community agreeing changes nothing: one owner.
    const firstAgain = await activated(first.key);
    for (const c of [first, firstAgain]) {
      const acted = await events(c, [
        say('s1', 'Claim your airdrop now, connect your wallet', 1),
        say('s2', 'Claim your airdrop now, connect your wallet', 2),
      ]);
      expect(acted.map((d: { action: string }) => d.action)).toEqual(['mute', 'ban']);
    }
    expect((await events(third, [say('m1', ordinary, 3)]))[0].signals.map((x: { id: string }) => x.id)).not.toContain(
      'known_spammer',
    );
    const second = await activated();
    await events(second, [
      say('s1', 'Claim your airdrop now, connect your wallet', 1),
      say('s2', 'Claim your airdrop now, connect your wallet', 2),
    ]);
    const after = await events(third, [say('m2', ordinary, 4)]);
    expect(after[0].signals.map((x: { id: string }) => x.id)).toContain('known_spammer');
    expect(after[0].score).toBeGreaterThan(before[0].score);
  });

  it('rejects bad examples with 400', async () => {
    const { key, id } = await community();
    for (const body of [
      { examples: [] },
      { examples: [{ text: 'x', label: 'maybe' }] },
      { examples: Array.from({ length: 501 }, () => ({ text: 'x', label: 'ham' })) },
      { examples: [{ text: 'x'.repeat(4097), label: 'ham' }] },
    ]) {
      const res = await api.call('POST', `${BASE}/communities/${id}/examples`, { key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });
});

describe('decisions and audit entries', () => {
  it('carry score and signals, strongest first, rule being the strongest', async () => {
    const { key, id, token } = await community();
    const events = [
      { event_id: 'act', type: 'activation', user: { id: 'bridge' }, token, sent_at: '2026-11-22T09:00:00.000Z' },
      {
        event_id: 'm1',
        type: 'message',
        user: { id: 'u1', username: 'spammer' },
        text: 'Claim your airdrop now, connect your wallet at acme-drop.xyz',
        sent_at: '2026-11-22T10:00:00.000Z',
      },
    ];
    const res = await api.call('POST', `${BASE}/communities/${id}/events`, { key, body: { events } });
    expect(res.status).toBe(200);
    const decision = res.body.decisions[1];
    expect(decision.score).toBeGreaterThan(0.9);
    expect(decision.rule).toBe(decision.signals[0].id);
    const entry = (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body.audit_logs[0];
    expect(entry.score).toBe(decision.score);
    expect(entry.signals).toEqual(decision.signals);
  });
});
