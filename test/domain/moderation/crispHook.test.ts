import { describe, expect, it } from 'vitest';
import { MAX_HOOK_SKEW_SECONDS, signCrispHook, verifyCrispSignature } from '#shared/platforms/crisp/hookSignature';
import { readCrispHook, type CrispHook } from '#shared/platforms/crisp/hookEvents';
import {
  blockedConversation,
  CRISP_DECISION_CALLS,
  crispBlock,
  crispNote,
  crispUnblockCalls,
} from '#shared/platforms/crisp/calls';
import { crisp } from '#shared/platforms/crisp/platform';
import { MUTE_SECONDS } from '#shared/platforms/contract';
import { signCrispHookRequest } from '#bin/standIns/crispStandIn';

const SECRET = 'hook-secret';
const NOW = 1_795_000_000_000;
const hook = (over: Record<string, unknown> = {}, event = 'message:send'): CrispHook => ({
  website_id: 'web-1',
  event,
  timestamp: NOW,
  data: {
    session_id: 'session_abc',
    type: 'text',
    from: 'user',
    origin: 'chat',
    content: 'hello',
    fingerprint: 163408807646880,
    user: { nickname: 'Visitor 12', user_id: 'session_abc' },
    timestamp: NOW - 50,
    ...over,
  },
});

describe('Crisp hook signature', () => {
  it('accepts the hex HMAC-SHA256 of "[timestamp;JSON]" and nothing else', () => {
    const body = hook();
    const { headers } = signCrispHookRequest(SECRET, body, NOW);
    expect(headers['x-crisp-signature']).toBe(signCrispHook(SECRET, String(NOW), body));
    expect(
      verifyCrispSignature(SECRET, headers['x-crisp-signature'], headers['x-crisp-request-timestamp'], body, NOW),
    ).toBe(true);
    expect(
      verifyCrispSignature(
        SECRET,
        headers['x-crisp-signature'].toUpperCase(),
        headers['x-crisp-request-timestamp'],
        body,
        NOW,
      ),
    ).toBe(true);
    expect(
      verifyCrispSignature(
        'other-secret',
        headers['x-crisp-signature'],
        headers['x-crisp-request-timestamp'],
        body,
        NOW,
      ),
    ).toBe(false);
    expect(
      verifyCrispSignature(
        SECRET,
        headers['x-crisp-signature'],
        headers['x-crisp-request-timestamp'],
        { ...body, website_id: 'web-2' },
        NOW,
      ),
    ).toBe(false);
    expect(verifyCrispSignature(SECRET, headers['x-crisp-signature'], String(NOW + 1), body, NOW)).toBe(false);
    for (const bad of [
      undefined,
      '',
      'zz',
      headers['x-crisp-signature'].slice(2),
      `${headers['x-crisp-signature']}00`,
    ]) {
      expect(verifyCrispSignature(SECRET, bad, headers['x-crisp-request-timestamp'], body, NOW)).toBe(false);
    }
  });

  it('refuses a timestamp outside the window either way, or one that is not a plain integer', () => {
    const body = hook();
    const at = (ms: number) => signCrispHookRequest(SECRET, body, ms).headers;
    const old = at(NOW - MAX_HOOK_SKEW_SECONDS * 1000 - 1);
    expect(verifyCrispSignature(SECRET, old['x-crisp-signature'], old['x-crisp-request-timestamp'], body, NOW)).toBe(
      false,
    );
    const ahead = at(NOW + MAX_HOOK_SKEW_SECONDS * 1000 + 1);
    expect(
      verifyCrispSignature(SECRET, ahead['x-crisp-signature'], ahead['x-crisp-request-timestamp'], body, NOW),
    ).toBe(false);
    const edge = at(NOW - MAX_HOOK_SKEW_SECONDS * 1000);
    expect(verifyCrispSignature(SECRET, edge['x-crisp-signature'], edge['x-crisp-request-timestamp'], body, NOW)).toBe(
      true,
    );
    // Seconds are read as seconds.
    const seconds = String(NOW / 1000);
    expect(verifyCrispSignature(SECRET, signCrispHook(SECRET, seconds, body), seconds, body, NOW)).toBe(true);
    for (const ts of ['1.5e12', '-1', ' 1795000000000', '0x1'])
      expect(verifyCrispSignature(SECRET, signCrispHook(SECRET, ts, body), ts, body, NOW)).toBe(false);
  });
});

describe('readCrispHook', () => {
  it('a visitor message is a join of its session and the message, ids website:session:fingerprint', () => {
    expect(readCrispHook(hook(), NOW)).toEqual({
      kind: 'visitor_message',
      target: {
        websiteId: 'web-1',
        sessionId: 'session_abc',
        fingerprint: 163408807646880,
        at: new Date(NOW - 50).toISOString(),
      },
      events: [
        {
          event_id: 'web-1:session_abc:join',
          type: 'member_join',
          user: { id: 'session_abc', username: 'Visitor 12' },
          sent_at: new Date(NOW - 50).toISOString(),
        },
        {
          event_id: 'web-1:session_abc:163408807646880',
          type: 'message',
          user: { id: 'session_abc', username: 'Visitor 12' },
          text: 'hello',
          sent_at: new Date(NOW - 50).toISOString(),
        },
      ],
    });
  });

  it("an operator's /activate <token> is a binding; a visitor's is only a message", () => {
    const operator = readCrispHook(
      hook({ from: 'operator', content: '  /activate tok_123 ' }, 'message:received'),
      NOW,
    );
    expect(operator).toEqual({
      kind: 'activate',
      target: {
        websiteId: 'web-1',
        sessionId: 'session_abc',
        fingerprint: 163408807646880,
        at: new Date(NOW - 50).toISOString(),
      },
      token: 'tok_123',
    });
    const visitor = readCrispHook(hook({ content: '/activate tok_123' }), NOW);
    expect(visitor.kind).toBe('visitor_message');
  });

  it("a timestamp a Date cannot hold falls back to the hook's, then to when it arrived; a nickname that is not text is left out", () => {
    const odd = readCrispHook({ ...hook({ timestamp: 1e300, user: { nickname: 7 } }), timestamp: undefined }, NOW + 5);
    expect(odd).toMatchObject({
      kind: 'visitor_message',
      events: [{ user: { id: 'session_abc' }, sent_at: new Date(NOW + 5).toISOString() }, {}],
    });
    expect((odd as { events: { user: object }[] }).events[0].user).toEqual({ id: 'session_abc' });
  });

  it('ignores what is not a text of the visitor or an operator command', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ from: 'operator' }, 'message:send'],
      [{ type: 'note', from: 'operator', content: '/activate tok' }, 'message:received'],
      [{ from: 'user', content: '/activate tok' }, 'message:received'],
      [{ from: 'operator', content: 'hello there' }, 'message:received'],
      [{ type: 'file', content: { name: 'a.png', url: 'https://x', type: 'image/png' } }, 'message:send'],
      [{ session_id: undefined }, 'message:send'],
      [{}, 'session:set_email'],
      [{ fingerprint: 1.5 }, 'message:send'],
      [{ fingerprint: '12' }, 'message:send'],
      [{ session_id: 42 }, 'message:send'],
      [{ content: '' }, 'message:send'],
    ];
    for (const [data, event] of cases)
      expect(readCrispHook(hook(data, event), NOW).kind, JSON.stringify([data, event])).toBe('ignored');
  });
});

describe('Crisp decision calls', () => {
  const t = { websiteId: 'web-1', sessionId: 'session_abc', fingerprint: 42, at: '2026-11-24T09:00:00.000Z' };
  const conversation = '/website/web-1/conversation/session_abc';
  it('delete, warn, mute and ban become the documented routes; only the mute is timed', () => {
    expect(CRISP_DECISION_CALLS.delete(t, { warning: 'w' })).toEqual([
      { platform: 'crisp', method: 'DELETE', route: `${conversation}/message/42` },
    ]);
    expect(CRISP_DECISION_CALLS.warn(t, { warning: 'Please stop' })).toEqual([
      {
        platform: 'crisp',
        method: 'POST',
        route: `${conversation}/message`,
        body: { type: 'text', from: 'operator', origin: 'chat', content: 'Please stop' },
      },
    ]);
    expect(CRISP_DECISION_CALLS.mute(t, { warning: 'w' })).toEqual([
      { platform: 'crisp', method: 'DELETE', route: `${conversation}/message/42` },
      {
        platform: 'crisp',
        method: 'PATCH',
        route: `${conversation}/block`,
        body: { blocked: true },
        timed: { seconds: MUTE_SECONDS, from: '2026-11-24T09:00:00.000Z' },
      },
    ]);
    expect(CRISP_DECISION_CALLS.ban(t, { warning: 'w' })).toEqual([
      { platform: 'crisp', method: 'DELETE', route: `${conversation}/message/42` },
      { platform: 'crisp', method: 'PATCH', route: `${conversation}/block`, body: { blocked: true } },
    ]);
    expect(crispNote(t, 'alert')).toEqual({
      platform: 'crisp',
      method: 'POST',
      route: `${conversation}/message`,
      body: { type: 'note', from: 'operator', origin: 'chat', content: 'alert' },
    });
  });

  it('undo unblocks the conversation the audit entry names, in the bound website', () => {
    const unblock = (lifts: 'mute' | 'ban') => [
      { platform: 'crisp', method: 'PATCH', route: `${conversation}/block`, body: { blocked: false }, lifts },
    ];
    expect(crispUnblockCalls(t, 'ban')).toEqual(unblock('ban'));
    const target = {
      communityId: 'c',
      record: { boundId: 'web-1' },
      userId: 'session_abc',
      eventId: 'web-1:session_abc:42',
      place: 'web-1',
    };
    expect(crisp.undo.mute!(target)).toEqual(unblock('mute'));
    expect(crisp.undo.ban!(target)).toEqual(unblock('ban'));
    expect(crisp.undo.ban!({ ...target, record: {}, place: undefined })).toBeUndefined();
    expect(crisp.undo.delete).toBeNull();
    expect(crisp.undo.warn).toBeNull();
  });

  it('a block call names its conversation back; other calls name none', () => {
    expect(blockedConversation(crispBlock({ websiteId: 'w/1', sessionId: 's?2' }, true))).toEqual({
      websiteId: 'w/1',
      sessionId: 's?2',
    });
    expect(blockedConversation(crispNote(t, 'x'))).toBeUndefined();
  });

  it('path segments from the hook are encoded, never read as routes', () => {
    expect(
      CRISP_DECISION_CALLS.delete(
        { websiteId: '../x', sessionId: 'a/b?c', fingerprint: 1, at: t.at },
        { warning: '' },
      )[0].route,
    ).toBe('/website/..%2Fx/conversation/a%2Fb%3Fc/message/1');
  });
});
