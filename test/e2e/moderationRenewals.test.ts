import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { getBalance, grantCredits, ledgerBetween } from '#shared/domain/credits/credits';
import { renewDueCommunities } from '#shared/domain/moderation/renewals';
import { runRenewalSweep } from '#bin/local/runtime';
import { uuidv7 } from '#shared/ids';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';

/*
 * A sweep renews, suspends or expires every community of the table due by its instant, whoever owns
 * it, and the admin command's `--at` reaches into the future: this file has a table of its own, so
 * no sweep here touches another file's communities and none of theirs touches ours. Within the file
 * each test lives in its own year, so what an earlier test left due is out of the way of a later one.
 */
/** The bus events the admin command printed, one `type {detail}` line each. */
const printedEvents = (stdout: string) =>
  [...stdout.matchAll(/^(\S+) (\{.*\})$/gm)].map(([, type, detail]) => ({ type, detail: JSON.parse(detail) }));

await useOwnTable('outreach-renewals');
const clock = new ManualClock(new Date('2020-01-01T00:00:00.000Z'));
const api = await startTestApi({ clock });
const BASE = '/integrations/moderation';
const DAY_MS = 24 * 60 * 60 * 1000;
const run = promisify(execFile);

/** Reddit and X communities here are bound by a custom bridge's activation event (every type starts pending until bound). */
async function provision(key: string, type = 'reddit') {
  const res = await api.call('POST', `${BASE}/communities`, {
    key,
    body: { name: `c-${type}`, project_name: 'Acme', type },
  });
  expect(res.status).toBe(201);
  if (type !== 'reddit' && type !== 'x') return res.body;
  const events = [
    {
      event_id: `bridge-${res.body.id}`,
      type: 'activation',
      user: { id: 'bridge' },
      token: res.body.activation_token,
      sent_at: clock.now().toISOString(),
    },
  ];
  expect((await api.call('POST', `${BASE}/communities/${res.body.id}/events`, { key, body: { events } })).status).toBe(
    200,
  );
  return (await api.call('GET', `${BASE}/communities/${res.body.id}`, { key })).body;
}
const read = async (key: string, id: string) => (await api.call('GET', `${BASE}/communities/${id}`, { key })).body;
const renewalCharges = async (userId: string) =>
  (await ledgerBetween(userId, '2000-01-01', '2100-01-01')).filter((e) => e.tool_name === 'moderation_community');
const balanceOf = async (key: string) =>
  (await api.call('GET', '/users/me', { key })).body.permanent_credit_balance as number;
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

describe('renewal sweep', () => {
  it('charges each due community exactly once per period however many sweeps run at the same time', async () => {
    clock.set(new Date('2020-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 2000 });
    const a = await provision(key);
    const b = await provision(key, 'telegram');
    expect(await balanceOf(key)).toBe(1000);

    clock.set(new Date(Date.parse(a.next_billing_at) + 60_000));
    const early = await renewDueCommunities(new Date(Date.parse(a.next_billing_at) - 1));
    expect(early.renewed).toBe(0);

    // Six overlapping sweeps, through the same entry point EventBridge and the local schedule use.
    const reports = (await Promise.all(Array.from({ length: 6 }, () => runRenewalSweep()))) as { renewed: number }[];
    expect(reports.reduce((sum, r) => sum + r.renewed, 0)).toBe(2);
    expect(await balanceOf(key)).toBe(0);
    const charges = await renewalCharges(user.id);
    expect(charges.map((c) => [c.ref_id, c.credits]).sort()).toEqual(
      [
        [a.id, 500],
        [a.id, 500],
        [b.id, 500],
        [b.id, 500],
      ].sort(),
    );

    // The period moved exactly 30 days from the old due time; status unchanged.
    expect(await read(key, a.id)).toMatchObject({
      status: 'connected',
      next_billing_at: plusDays(a.next_billing_at, 30),
    });
    expect(await read(key, b.id)).toMatchObject({
      status: 'pending_activation',
      next_billing_at: plusDays(b.next_billing_at, 30),
    });
    await api.ports.webhookQueue.settled();
    expect(
      api.ports.events.published.filter(
        (e) => e.type === 'community.renewed' && [a.id, b.id].includes(e.detail.community_id as string),
      ),
    ).toHaveLength(2);

    // Later sweeps in the same period find nothing more to charge.
    await Promise.all([runRenewalSweep(), runRenewalSweep()]);
    expect(await renewalCharges(user.id)).toHaveLength(4);
  });

  it('keeps periods on schedule when a sweep runs days late', async () => {
    clock.set(new Date('2021-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 1500 });
    const c = await provision(key);
    clock.set(new Date(Date.parse(c.next_billing_at) + 3 * DAY_MS));
    await renewDueCommunities();
    expect((await read(key, c.id)).next_billing_at).toBe(plusDays(c.next_billing_at, 30));
    expect(await renewalCharges(user.id)).toHaveLength(2);
  });

  it('suspends on a short balance, retries on later sweeps, and restores the previous status once paid', async () => {
    clock.set(new Date('2022-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 1000 });
    const connected = await provision(key, 'x');
    const pending = await provision(key, 'discord');
    expect(await balanceOf(key)).toBe(0);

    clock.set(new Date(Date.parse(connected.next_billing_at) + 60_000));
    await renewDueCommunities();
    for (const c of [connected, pending])
      expect(await read(key, c.id)).toMatchObject({ status: 'suspended', next_billing_at: c.next_billing_at });
    await api.ports.webhookQueue.settled();
    expect(
      api.ports.events.published.filter(
        (e) => e.type === 'community.suspended' && e.detail.community_id === connected.id,
      ),
    ).toHaveLength(1);

    // Monitoring stops while suspended.
    const events = await api.call('POST', `${BASE}/communities/${connected.id}/events`, {
      key,
      body: {
        events: [
          {
            event_id: 'while-suspended',
            type: 'message',
            user: { id: 'u1', username: 'spammer' },
            text: 'DM me for support',
            sent_at: clock.now().toISOString(),
          },
        ],
      },
    });
    expect(events.body.decisions[0]).toMatchObject({ action: 'allow', rule: 'not_monitored' });
    expect((await api.call('GET', `${BASE}/status?community_id=${connected.id}`, { key })).body).toMatchObject({
      status: 'suspended',
      connection_state: 'connected',
    });

    clock.advance(DAY_MS);
    const retry = await renewDueCommunities();
    expect(retry.still_suspended).toBeGreaterThanOrEqual(2);
    expect(await renewalCharges(user.id)).toHaveLength(2);

    await grantCredits({ userId: user.id, grantId: uuidv7(), amount: 1000, source: 'test' });
    clock.advance(DAY_MS);
    const recoveredAt = clock.now().toISOString();
    await renewDueCommunities();
    expect(await read(key, connected.id)).toMatchObject({
      status: 'connected',
      next_billing_at: plusDays(recoveredAt, 30),
    });
    expect(await read(key, pending.id)).toMatchObject({
      status: 'pending_activation',
      next_billing_at: plusDays(recoveredAt, 30),
    });
    expect(await renewalCharges(user.id)).toHaveLength(4);
    expect(await balanceOf(key)).toBe(0);
  });

  it('expires a community with auto-renew off at the end of its period, without charging', async () => {
    clock.set(new Date('2023-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 5000 });
    const c = await provision(key);
    await api.call('POST', `${BASE}/communities/${c.id}/auto-renew`, { key, body: { auto_renew: false } });

    clock.set(new Date(Date.parse(c.next_billing_at) - 60_000));
    await renewDueCommunities();
    expect((await read(key, c.id)).status).toBe('connected');

    clock.set(new Date(Date.parse(c.next_billing_at) + 60_000));
    await Promise.all([renewDueCommunities(), renewDueCommunities()]);
    expect(await read(key, c.id)).toMatchObject({ status: 'expired', next_billing_at: null, auto_renew: false });
    expect(await renewalCharges(user.id)).toHaveLength(1);
    expect((await api.call('GET', `${BASE}/status?community_id=${c.id}`, { key })).body).toMatchObject({
      status: 'expired',
      connection_state: 'disconnected',
    });

    const revive = await api.call('POST', `${BASE}/communities/${c.id}/auto-renew`, {
      key,
      body: { auto_renew: true },
    });
    expect(revive.status).toBe(422);
    expect(revive.body.error.code).toBe('invalid_state');
    clock.advance(60 * DAY_MS);
    await renewDueCommunities();
    expect(await renewalCharges(user.id)).toHaveLength(1);
  });

  it('stops billing a deleted community', async () => {
    clock.set(new Date('2024-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 5000 });
    const c = await provision(key);
    expect((await api.call('DELETE', `${BASE}/communities/${c.id}`, { key })).status).toBe(204);
    clock.set(new Date(Date.parse(c.next_billing_at) + 60_000));
    await renewDueCommunities();
    expect(await renewalCharges(user.id)).toHaveLength(1);
    expect(await balanceOf(key)).toBe(4500);
  });

  it('runs from the admin command as if at the given instant', async () => {
    clock.set(new Date('2025-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 1000 });
    const c = await provision(key);
    const at = plusDays(c.next_billing_at, 1);
    const out = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'renewals', '--at', at], {
      env: { ...process.env },
      timeout: 60_000,
    });
    expect(out.stdout).toContain(`Sweep at ${at}`);
    expect(printedEvents(out.stdout)).toContainEqual({
      type: 'community.renewed',
      detail: expect.objectContaining({ community_id: c.id, event_id: expect.any(String) }),
    });
    expect(await read(key, c.id)).toMatchObject({
      status: 'connected',
      next_billing_at: plusDays(c.next_billing_at, 30),
    });
    expect(await renewalCharges(user.id)).toHaveLength(2);
    await expect(
      run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'renewals', '--at', 'soon'], {
        env: { ...process.env },
      }),
    ).rejects.toMatchObject({ code: 1 });
  });
});

describe('a sweep for a later instant', () => {
  it('renews what is due by then, but moves money, expires grants and dates the ledger at the present', async () => {
    clock.set(new Date('2019-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser();
    // Live now, expired by the sweep's instant: it must be spent from, not silently dropped.
    await grantCredits({
      userId: user.id,
      grantId: uuidv7(),
      amount: 2000,
      source: 'test',
      expiresAt: '2019-01-20T00:00:00.000Z',
    });
    const c = await provision(key);
    expect(await getBalance(user.id)).toMatchObject({ available: 1500 });

    const dueBy = new Date(Date.parse(c.next_billing_at) + DAY_MS);
    const report = await renewDueCommunities(dueBy);
    expect(report).toMatchObject({ at: dueBy.toISOString(), renewed: 1, suspended: 0 });
    expect(await getBalance(user.id)).toMatchObject({
      available: 1000,
      permanent: 0,
      activeGrantTotal: 1000,
      earliestExpiry: '2019-01-20T00:00:00.000Z',
    });
    const charges = await renewalCharges(user.id);
    expect(charges).toHaveLength(2);
    expect(charges.map((e) => e.created_at)).toEqual([clock.now().toISOString(), clock.now().toISOString()]);
    expect(await read(key, c.id)).toMatchObject({
      status: 'connected',
      next_billing_at: plusDays(c.next_billing_at, 30),
    });
  });

  it('a suspended community paid by a sweep for a later instant starts its new period now, when it is paid', async () => {
    clock.set(new Date('2018-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 500 });
    const c = await provision(key);
    clock.set(new Date(Date.parse(c.next_billing_at) + 60_000));
    await renewDueCommunities();
    expect((await read(key, c.id)).status).toBe('suspended');

    await grantCredits({ userId: user.id, grantId: uuidv7(), amount: 500, source: 'test' });
    const paidAt = clock.now().toISOString();
    expect((await renewDueCommunities(new Date(clock.now().getTime() + 10 * DAY_MS))).renewed).toBe(1);
    expect(await read(key, c.id)).toMatchObject({ status: 'connected', next_billing_at: plusDays(paidAt, 30) });
    expect((await renewalCharges(user.id)).map((e) => e.created_at)).toContain(paidAt);
  });

  it('pays a period early but never cuts a paid one short: no expiry or suspension before the period ends', async () => {
    clock.set(new Date('2017-01-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ credits: 1000 });
    const ending = await provision(key);
    const unpaid = await provision(key);
    await api.call('POST', `${BASE}/communities/${ending.id}/auto-renew`, { key, body: { auto_renew: false } });
    expect(await balanceOf(key)).toBe(0);

    // Ten days into the period, a sweep for an instant past its end: both periods are paid until then.
    clock.set(new Date('2017-01-11T00:00:00.000Z'));
    const report = await renewDueCommunities(new Date(Date.parse(ending.next_billing_at) + DAY_MS));
    expect(report).toMatchObject({ expired: 0, suspended: 0 });
    for (const c of [ending, unpaid])
      expect(await read(key, c.id)).toMatchObject({ status: 'connected', next_billing_at: c.next_billing_at });

    // At the end of the period the sweep of the present does both.
    clock.set(new Date(Date.parse(ending.next_billing_at) + 60_000));
    expect(await renewDueCommunities()).toMatchObject({ expired: 1, suspended: 1 });
    expect((await read(key, ending.id)).status).toBe('expired');
    expect((await read(key, unpaid.id)).status).toBe('suspended');
    expect(await renewalCharges(user.id)).toHaveLength(2);
  });

  it('the admin command with a future --at keeps grants that are live now and dates the charge now', async () => {
    const realNow = Date.now();
    clock.set(new Date(realNow - 29.5 * DAY_MS));
    const { key, user } = await api.newUser();
    const grantExpiry = new Date(realNow + 0.75 * DAY_MS).toISOString();
    await grantCredits({ userId: user.id, grantId: uuidv7(), amount: 2000, source: 'test', expiresAt: grantExpiry });
    const c = await provision(key);
    clock.set(new Date(realNow));
    expect(Date.parse(c.next_billing_at)).toBeGreaterThan(Date.now());

    const at = new Date(realNow + DAY_MS).toISOString();
    const before = new Date().toISOString();
    const out = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'renewals', '--at', at], {
      env: { ...process.env },
      timeout: 60_000,
    });
    const after = new Date().toISOString();
    expect(printedEvents(out.stdout)).toContainEqual({
      type: 'community.renewed',
      detail: expect.objectContaining({ community_id: c.id, event_id: expect.any(String) }),
    });
    clock.set(new Date());
    expect(await getBalance(user.id)).toMatchObject({
      available: 1000,
      permanent: 0,
      activeGrantTotal: 1000,
      earliestExpiry: grantExpiry,
    });
    const renewal = (await renewalCharges(user.id)).filter((e) => e.created_at >= before);
    expect(renewal).toHaveLength(1);
    expect(renewal[0].created_at <= after).toBe(true);
  });
});
