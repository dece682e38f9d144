import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';

// Identifiers are taken as sent (the document says so): a bridge that keys its messages by ids with
// surrounding spaces must find its own ids in the decisions and the audit, and two ids differing only
// by those spaces are two events.
const api = await startTestApi();
const BASE = '/integrations/moderation';
const T0 = '2026-11-22T10:00:00.000Z';

async function boundCommunity() {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, { key, body: { name: 'Chat', project_name: 'Acme', type: 'crisp' } })
  ).body;
  const bound = await api.call('POST', `${BASE}/communities/${community.id}/events`, {
    key,
    body: {
      events: [
        { event_id: 'act', type: 'activation', user: { id: 'bridge' }, token: community.activation_token, sent_at: T0 },
      ],
    },
  });
  expect(bound.body.decisions[0]).toMatchObject({ rule: 'activation' });
  return { key, id: community.id as string };
}

describe('moderation event identifiers', () => {
  it('event_id and user.id come back in decisions and the audit exactly as sent', async () => {
    const { key, id } = await boundCommunity();
    const spam = (eventId: string, userId: string) => ({
      event_id: eventId,
      type: 'message',
      user: { id: userId, username: 'cryptohelp' },
      text: 'hello, I can help: https://acme-support.help/ticket Connect your wallet here to claim your airdrop',
      sent_at: T0,
    });
    const res = await api.call('POST', `${BASE}/communities/${id}/events`, {
      key,
      body: { events: [spam(' m-1 ', ' u-1 '), spam('m-1', 'u-2')] },
    });
    expect(res.status).toBe(200);
    expect(res.body.decisions.map((d: { event_id: string }) => d.event_id)).toEqual([' m-1 ', 'm-1']);
    expect(res.body.decisions[0].action).not.toBe('allow');
    const audit = (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body.audit_logs as {
      event_id: string;
      user_id: string;
    }[];
    expect(audit.map((a) => [a.event_id, a.user_id]).sort()).toEqual([
      [' m-1 ', ' u-1 '],
      ['m-1', 'u-2'],
    ]);
  });

  it('are still validated: empty or over 200 characters is a 400', async () => {
    const { key, id } = await boundCommunity();
    const event = (eventId: string, userId: string) => ({
      event_id: eventId,
      type: 'message',
      user: { id: userId },
      text: 'hi',
      sent_at: T0,
    });
    for (const [eventId, userId, path] of [
      ['', 'u', 'events.0.event_id'],
      ['x'.repeat(201), 'u', 'events.0.event_id'],
      ['e', '', 'events.0.user.id'],
      ['e', 'u'.repeat(201), 'events.0.user.id'],
    ]) {
      const res = await api.call('POST', `${BASE}/communities/${id}/events`, {
        key,
        body: { events: [event(eventId, userId)] },
      });
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(res.body.error.details), path).toContain(path);
    }
  });
});
