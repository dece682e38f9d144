import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { DEFAULT_COMMUNITY_RULES } from '#shared/domain/moderation/communityRules';

const api = await startTestApi();
const BASE = '/integrations/moderation';

/** Bound by a custom bridge's activation event (every type starts pending until bound). */
async function provision() {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, { key, body: { name: 'Chat', project_name: 'Acme', type: 'reddit' } })
  ).body;
  const events = [
    {
      event_id: 'bridge-activation',
      type: 'activation',
      user: { id: 'bridge' },
      token: community.activation_token,
      sent_at: '2026-11-22T09:00:00.000Z',
    },
  ];
  expect((await api.call('POST', `${BASE}/communities/${community.id}/events`, { key, body: { events } })).status).toBe(
    200,
  );
  return { key, id: community.id as string };
}

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
let seq = 0;
const NEWBIE = { id: 'u-new', username: 'newbie' };
const msg = (text: string, user: object = NEWBIE, minutes = seq) => ({
  event_id: `r${++seq}`,
  type: 'message',
  user,
  text,
  sent_at: new Date(T0 + minutes * 60_000).toISOString(),
});
const actions = async (key: string, id: string, events: object[]) =>
  (await api.call('POST', `${BASE}/communities/${id}/events`, { key, body: { events } })).body.decisions.map(
    (d: { action: string; rule: string }) => `${d.action}:${d.rule}`,
  );

describe('GET|PUT /communities/{id}/rules', () => {
  it("starts with the defaults (today's rule set) and merges a partial change per rule", async () => {
    const { key, id } = await provision();
    const before = await api.call('GET', `${BASE}/communities/${id}/rules`, { key });
    expect(before.status).toBe(200);
    expect(before.body).toEqual(DEFAULT_COMMUNITY_RULES);
    const put = await api.call('PUT', `${BASE}/communities/${id}/rules`, {
      key,
      body: { rules: { flood: { max_messages: 9 } }, captcha: { timeout_seconds: 300 }, mode: 'observe' },
    });
    expect(put.status).toBe(200);
    expect(put.body.rules.flood).toEqual({ enabled: true, max_messages: 9, window_seconds: 10 });
    expect(put.body.captcha).toEqual({ enabled: false, timeout_seconds: 300 });
    expect(put.body.mode).toBe('observe');
    expect((await api.call('GET', `${BASE}/communities/${id}/rules`, { key })).body).toEqual(put.body);
  });

  it.each([
    ['an unknown rule', { rules: { nonsense: { enabled: true } } }],
    ['an unknown threshold', { rules: { flood: { max: 3 } } }],
    ['a threshold out of range', { rules: { flood: { max_messages: 0 } } }],
    ['an unknown mode', { mode: 'loud' }],
    ['a URL in the allowlist', { link_allowlist: ['https://acme.org/x'] }],
    ['a captcha timeout under 30 s', { captcha: { timeout_seconds: 5 } }],
    ['an empty change', {}],
    ['an unknown top-level field', { warn_limits: 2 }],
  ])('rejects %s with 400 validation_error', async (_label, body) => {
    const { key, id } = await provision();
    const res = await api.call('PUT', `${BASE}/communities/${id}/rules`, { key, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
  });

  it("is the owner's alone (404 for another user)", async () => {
    const { id } = await provision();
    const other = await api.newUser();
    expect((await api.call('GET', `${BASE}/communities/${id}/rules`, { key: other.key })).status).toBe(404);
    expect(
      (await api.call('PUT', `${BASE}/communities/${id}/rules`, { key: other.key, body: { warn_limit: 3 } })).status,
    ).toBe(404);
  });

  it('the engine reads them: a disabled rule, an allowlisted domain, extra blocked words and a longer warn ladder', async () => {
    const { key, id } = await provision();
    expect(await actions(key, id, [msg('look https://spam.example.com'), msg('a moonboy said so')])).toEqual([
      'warn:link',
      'allow:none',
    ]);

    await api.call('PUT', `${BASE}/communities/${id}/rules`, {
      key,
      body: {
        link_allowlist: ['acme.org'],
        rules: { shouting: { enabled: false } },
        blocked_words: ['moonboy'],
        warn_limit: 2,
      },
    });
    const other = { id: 'u-2', username: 'second' };
    expect(
      await actions(key, id, [
        msg('see https://docs.acme.org/staking', other),
        msg('CHECK THIS OUT RIGHT NOW FRIENDS', other),
        msg('a moonboy said so', other),
        msg('but https://evil.example.com/x and docs.acme.org', other),
        msg('another moonboy', other),
      ]),
    ).toEqual(['allow:none', 'allow:none', 'warn:blocked_word', 'warn:link', 'mute:blocked_word']);
  });
});
