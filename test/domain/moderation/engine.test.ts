import { describe, expect, it } from 'vitest';
import { actionFor } from '#shared/domain/moderation/actions';
import {
  asActivation,
  emptyMemberState,
  moderateEvent,
  policyOf,
  type ChatEvent,
  type MemberState,
  type PolicySource,
} from '#shared/domain/moderation/engine';
import { renderTemplate } from '#shared/domain/moderation/templates';

const community = (overrides: Partial<PolicySource> = {}): PolicySource => ({
  billingState: 'active',
  activatedAt: '2026-11-01T00:00:00.000Z',
  whitelistedUsernames: ['@TeamLead'],
  whitelistedRoleIds: ['role-mod'],
  shouldSendWelcomeMessages: true,
  welcomeMessage: 'Welcome {username}, read the rules!',
  alertTemplate: '[{action}] {username}',
  ...overrides,
});

let n = 0;
const event = (text: string, at: string, user: Partial<ChatEvent['user']> = {}): ChatEvent => ({
  event_id: `e${++n}`,
  type: 'message',
  user: { id: 'u1', username: 'spammer', joined_at: '2026-11-22T09:00:00.000Z', ...user },
  text,
  sent_at: at,
});

/** Runs events through the engine in order, carrying the member's state along. */
function run(events: ChatEvent[], source = community()) {
  const policy = policyOf(source);
  let state: MemberState = emptyMemberState();
  return events.map((e) => {
    const out = moderateEvent(policy, state, e);
    state = out.state;
    return out;
  });
}

describe('graduated actions', () => {
  it('climbs warn, mute, ban for repeat offences; severe rules start at mute; minor ones only delete', () => {
    expect([0, 1, 2, 3].map((prior) => actionFor('offence', prior))).toEqual(['warn', 'mute', 'ban', 'ban']);
    expect([0, 1, 2].map((prior) => actionFor('severe', prior))).toEqual(['mute', 'ban', 'ban']);
    expect(actionFor('minor', 5)).toBe('delete');
  });

  it('escalates one member across messages inside the window and starts afresh after it', () => {
    const link = 'look https://spam.example.com';
    const out = run([
      event(link, '2026-11-22T10:00:00.000Z'),
      event(link.replace('look', 'see'), '2026-11-22T10:05:00.000Z'),
      event('hey, go to https://other.example.com', '2026-11-22T10:10:00.000Z'),
      event('ANOTHER LOUD MESSAGE FROM ME', '2026-11-22T10:15:00.000Z'),
      event('come on https://late.example.com', '2026-11-24T10:15:00.000Z'),
    ]);
    // Capital letters alone remove nothing (a score of their own, below the removal threshold). Two days
    // later the offences have left the window: the ladder starts again at warn.
    expect(out.map((o) => o.decision.action)).toEqual(['warn', 'mute', 'ban', 'allow', 'warn']);
  });

  it('renders the alert template and writes an audit entry for every action', () => {
    const [first] = run([event('DM me for support', '2026-11-22T10:00:00.000Z')]);
    expect(first.decision).toMatchObject({ action: 'mute', rule: 'scam_phrase', alert: '[mute] spammer' });
    expect(first.audit).toMatchObject({
      user_id: 'u1',
      username: 'spammer',
      action: 'mute',
      rule: 'scam_phrase',
      message_excerpt: 'DM me for support',
      alert_message: '[mute] spammer',
    });
    expect(first.delta).toEqual({ messages_scanned: 1, messages_flagged: 1, mute: 1 });
  });

  it('uses the default alert template when the community has none', () => {
    const [first] = run([event('DM me for support', '2026-11-22T10:00:00.000Z')], community({ alertTemplate: null }));
    expect(first.decision.alert).toBe('Moderation: mute applied to spammer');
  });
});

describe('exemptions, joins and monitoring', () => {
  it('spares whitelisted usernames (any case, with or without @) and roles from actions but still counts their messages', () => {
    const out = run([
      event('DM me for support', '2026-11-22T10:00:00.000Z', { username: 'teamlead' }),
      event('connect your wallet here', '2026-11-22T10:00:01.000Z', {
        id: 'u2',
        username: 'mod',
        role_ids: ['role-x', 'role-mod'],
      }),
    ]);
    expect(out.map((o) => [o.decision.action, o.decision.rule])).toEqual([
      ['allow', 'whitelisted'],
      ['allow', 'whitelisted'],
    ]);
    expect(out[0].decision.reason).toContain('would have matched scam_phrase');
    expect(out.every((o) => o.delta.messages_scanned === 1 && !o.audit)).toBe(true);
  });

  it('welcomes a joining member with the rendered welcome message, and not when welcomes are off', () => {
    const join: ChatEvent = {
      event_id: 'j1',
      type: 'member_join',
      user: { id: 'u9', username: 'newbie' },
      sent_at: '2026-11-22T10:00:00.000Z',
    };
    const [on] = run([join]);
    expect(on.decision).toEqual({
      event_id: 'j1',
      action: 'allow',
      rule: 'member_join',
      reason: 'A member joined',
      welcome_message: 'Welcome newbie, read the rules!',
    });
    expect(on.delta).toEqual({ members_joined: 1, welcome_messages_sent: 1 });
    const [off] = run([join], community({ shouldSendWelcomeMessages: false }));
    expect(off.decision.welcome_message).toBeUndefined();
    expect(off.delta).toEqual({ members_joined: 1 });
  });

  it('remembers the join time: a link right after joining is held, a member of old standing is not', () => {
    const joined: ChatEvent = {
      event_id: 'j2',
      type: 'member_join',
      user: { id: 'u1', username: 'fresh' },
      sent_at: '2026-11-22T10:00:00.000Z',
    };
    const out = run([
      joined,
      event('docs: https://docs.example.org', '2026-11-22T10:01:00.000Z', { joined_at: undefined, username: 'fresh' }),
    ]);
    expect(out[1].decision.rule).toBe('link');
    const veteran = run([
      event('docs: https://docs.example.org', '2026-11-22T10:01:00.000Z', { joined_at: '2024-01-01T00:00:00.000Z' }),
    ]);
    expect(veteran[0].decision.action).toBe('allow');
  });

  it('takes no action while the community is not monitored, but counts the message', () => {
    for (const source of [
      community({ billingState: 'suspended' }),
      community({ activatedAt: null }),
      community({ billingState: 'expired' }),
    ]) {
      const [out] = run([event('DM me for support', '2026-11-22T10:00:00.000Z')], source);
      expect(out.decision).toMatchObject({ action: 'allow', rule: 'not_monitored' });
      expect(out.delta).toEqual({ messages_scanned: 1 });
    }
  });

  it('reads /activate <token> typed in the chat as an activation event', () => {
    expect(asActivation(event('/activate abc123', '2026-11-22T10:00:00.000Z'))).toMatchObject({
      type: 'activation',
      token: 'abc123',
    });
    expect(asActivation(event('/activate@OurBot abc123', '2026-11-22T10:00:00.000Z'))).toMatchObject({
      type: 'activation',
      token: 'abc123',
    });
    expect(asActivation(event('how do I /activate this?', '2026-11-22T10:00:00.000Z')).type).toBe('message');
  });
});

describe('renderTemplate', () => {
  it('fills {action} and {username} wherever they appear and leaves unknown placeholders visible', () => {
    expect(
      renderTemplate('{username} got a {action}; {username} again {oops}', { action: 'warn', username: 'bob' }),
    ).toBe('bob got a warn; bob again {oops}');
  });
});
