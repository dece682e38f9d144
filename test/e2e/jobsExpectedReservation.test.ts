/**
 * A job reserves its expected cost (the quote), not the most it could ever cost; work that runs past
 * the reservation reserves more from the balance as it goes, and when the balance cannot cover the
 * next unit that capability stops with a warning while the job still completes. The expected cost
 * is what the curated data and rules deliver; the Hunter stand-in finds more than that.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '#shared/config/config';
import { getBalance, ledgerBetween } from '#shared/domain/credits/credits';
import { getReservation } from '#shared/store/walletRepo';
import { estimateCredits } from '#shared/domain/jobs/pricing';
import { runStageMessage } from '#shared/domain/jobs/pipeline';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { startHunterStandIn, type HunterCompany } from '#bin/standIns/hunterStandIn';

const HUNTER_KEY = 'e2e-topup-hunter-key';

/** Invented companies, unknown to the curated data, that Hunter knows with two people each. */
const invented = (tag: string, n: number): HunterCompany[] =>
  Array.from({ length: n }, (_, i) => {
    const domain = `${tag}-${i}-topup.io`;
    return {
      domain,
      name: `${tag} ${i}`,
      employees: '11-50',
      people: ['Ada Stone', 'Ben Hale'].map((name) => {
        const [first, last] = name.split(' ');
        return {
          first_name: first,
          last_name: last,
          position: 'CEO',
          linkedin: null,
          email: `${first.toLowerCase()}@${domain}`,
          confidence: 90,
          verification: 'valid' as const,
        };
      }),
    };
  });

const ONE = invented('single', 1);
const CANCELLED = invented('cancelled', 1);
const MANY = invented('parallel', 60);
const hunter = await startHunterStandIn(HUNTER_KEY, [...ONE, ...CANCELLED, ...MANY]);
const saved = { key: process.env.HUNTER_API_KEY, base: process.env.HUNTER_API_BASE };
process.env.HUNTER_API_KEY = HUNTER_KEY;
process.env.HUNTER_API_BASE = hunter.apiBase;
reloadConfig();
await useOwnTable('jobs-expected');
const api = await startTestApi();

afterAll(async () => {
  for (const [name, value] of [
    ['HUNTER_API_KEY', saved.key],
    ['HUNTER_API_BASE', saved.base],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
  await hunter.close();
});

const companiesBody = (companies: { company_name: string; domain: string }[]) => ({
  preset: 'full_pipeline',
  input_assets: { companies },
});
const asInput = (companies: HunterCompany[]) => companies.map((c) => ({ company_name: c.name, domain: c.domain }));

async function quoteAndRun(key: string, body: Record<string, unknown>) {
  const quote = await api.call('POST', '/bd/jobs/quote', { key, body });
  expect(quote.status, quote.text).toBe(200);
  const created = await api.call('POST', '/bd/jobs', { key, body });
  expect(created.status, created.text).toBe(202);
  await api.ports.queue.drained();
  const job = (await api.call('GET', `/bd/jobs/${created.body.job_id}`, { key })).body;
  return { quote: quote.body, created: created.body, job };
}

/** The ledger reconciles: what the account started with = its balance + what the job was charged; nothing stays reserved. */
async function expectReconciled(userId: string, start: number, job: { job_id: string; credits_charged: number }) {
  const entries = (await ledgerBetween(userId, '2000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z')).filter(
    (e) => e.tool_name === 'bd_job',
  );
  expect(entries.reduce((sum, e) => sum + e.credits, 0)).toBe(job.credits_charged);
  const { available } = await getBalance(userId);
  expect(available).toBeGreaterThanOrEqual(0);
  expect(available + job.credits_charged).toBe(start);
  expect(await getReservation(userId, `bd_job-${job.job_id}`)).toBeUndefined();
}

describe('a job reserves its expected cost', () => {
  it('starts with a balance above the expected cost but below the most it could cost, and completes', async () => {
    // Prepare: the README's shape, smaller: two curated companies and many the data does not know.
    const companies = [
      { company_name: 'Nebula Labs', domain: 'nebulalabs.io' },
      { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
      ...Array.from({ length: 38 }, (_, i) => ({ company_name: `Demo ${i}`, domain: `demo-expected-${i}.io` })),
    ];
    const body = companiesBody(companies);
    const most = estimateCredits(
      ['qualification', 'company_size', 'contact_discovery', 'email_lookup', 'email_verify'],
      {
        companies: companies.length,
        contacts: 0,
      },
    );
    const start = 300;
    expect(most).toBeGreaterThan(start);
    const { key, user } = await api.newUser({ tier: 'pro', credits: start });

    // Act
    const { quote, created, job } = await quoteAndRun(key, body);

    // Assess: the quote is the expected cost, reserved as it is; the job is charged what it delivered.
    expect(quote.credits).toBeLessThan(start);
    expect(quote.credits).toBeGreaterThanOrEqual(companies.length);
    expect(created.credits_reserved).toBe(quote.credits);
    expect(job.status).toBe('completed');
    expect(job.credits_charged).toBeGreaterThan(0);
    await expectReconciled(user.id, start, job);
  });

  it('reserves more from the balance when its work runs past the reservation, and is charged all it delivered', async () => {
    // Prepare: a company only Hunter knows: the expected cost is its qualification alone.
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1_000 });

    // Act
    const { quote, created, job } = await quoteAndRun(key, companiesBody(asInput(ONE)));

    // Assess: 1 scored + 1 sized + 2 found (2 each) + 2 addresses (3 each) + 2 checked = 14.
    expect(quote.credits).toBe(1);
    expect(created.credits_reserved).toBe(1);
    expect(job.status).toBe('completed');
    expect(job.warnings).toEqual([]);
    expect(job.credits_charged).toBe(14);
    expect(job.credits_reserved).toBeGreaterThanOrEqual(14);
    await expectReconciled(user.id, 1_000, job);
  });

  it('stops a capability when the balance cannot cover its next unit, completes, and never charges past the balance', async () => {
    // Prepare: 60 companies in three parallel batches; every one of them yields 14 credits of work (840), the balance holds 200.
    const start = 200;
    const { key, user } = await api.newUser({ tier: 'pro', credits: start });

    // Act
    const { quote, created, job } = await quoteAndRun(key, companiesBody(asInput(MANY)));

    // Assess
    expect(quote.credits).toBe(60);
    expect(created.credits_reserved).toBe(60);
    expect(job.status).toBe('completed');
    expect(job.credits_charged).toBeLessThanOrEqual(start);
    // What remains cannot pay for the cheapest unit that stopped: the balance was used, not abandoned early.
    expect(start - job.credits_charged).toBeLessThan(3);
    expect(job.warnings.some((w: string) => /stopped/.test(w) && /balance/.test(w))).toBe(true);
    await expectReconciled(user.id, start, job);
  });

  it('a job cancelled after its work reserved more releases all it did not use', async () => {
    // Prepare: the queue held, the job's one batch run by hand through qualification, size, discovery and lookup.
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1_000 });
    api.ports.queue.stop();
    const created = (await api.call('POST', '/bd/jobs', { key, body: companiesBody(asInput(CANCELLED)) })).body;
    expect(created.credits_reserved).toBe(1);
    const stages = ['qualification', 'company_size', 'contact_discovery', 'email_lookup'] as const;
    for (const [step, capability] of stages.entries())
      await runStageMessage({
        kind: 'bd_job.stage',
        user_id: user.id,
        job_id: created.job_id,
        batch_no: 0,
        step,
        capability,
      });
    const running = (await api.call('GET', `/bd/jobs/${created.job_id}`, { key })).body;
    // 1 scored + 1 sized + 2 found (2 each) + 2 addresses (3 each).
    expect(running.credits_reserved).toBe(12);
    expect((await getBalance(user.id)).available).toBe(1_000 - 12);

    // Act
    const cancelled = await api.call('POST', `/bd/jobs/${created.job_id}/cancel`, { key });
    const { workerHandler } = await import('#bin/local/handlers');
    api.ports.queue.setConsumer(async (event) => (await workerHandler())(event));
    await api.ports.queue.drained();

    // Assess: charged what it consumed, the rest of the grown reservation back.
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', credits_reserved: 12, credits_charged: 12 });
    await expectReconciled(user.id, 1_000, cancelled.body);
  });
});
