import { describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { installPorts } from '#shared/adapters/ports';
import { getBalance, ledgerBetween } from '#shared/domain/credits/credits';
import { creditsFor } from '#shared/domain/jobs/pricing';
import { superviseJobs } from '#shared/domain/jobs/watchdog';
import { getJob } from '#shared/store/jobsRepo';
import { getReservation } from '#shared/store/walletRepo';
import { startTestApi } from '#test/support/api';
import { losingQueue } from '#test/support/losingQueue';
import { interruptedGrowthRun } from '#test/support/interruptedRun';
import { useOwnTable } from '#test/support/ownTable';
import { recoverStartingRuns } from '#shared/domain/growth/runs';
import { getRun } from '#shared/store/growthRepo';

process.env.JOB_EVENTS_POLL_MS = '40';

// The watchdog acts on every stalled job of its table: this file has a table of its own.
await useOwnTable('outreach-watchdog');
const clock = new ManualClock(new Date('2016-01-01T00:00:00.000Z'));
const api = await startTestApi({ clock });
const queue = api.ports.queue;
const MINUTE = 60_000;
const COMPANIES = [
  { company_name: 'Nebula Labs', website: 'https://www.nebulalabs.io/about' },
  { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
];

async function settledMoney(userId: string, jobId: string) {
  const job = (await getJob(userId, jobId, true))!;
  const charges = (await ledgerBetween(userId, '2000-01-01', '2100-01-01')).filter(
    (e) => e.tool_name === 'bd_job' && e.ref_id === jobId,
  );
  return {
    job,
    charged: charges.reduce((s, e) => s + e.credits, 0),
    reservation: await getReservation(userId, job.reservationId),
    balance: (await getBalance(userId)).available,
  };
}

describe('job watchdog', () => {
  it('re-drives a job whose messages were lost: it resumes from its last committed step and settles exactly', async () => {
    clock.set(new Date('2016-03-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ tier: 'pro', credits: 10_000 });
    // The first stage message goes through; everything after it is lost.
    installPorts({ queue: losingQueue(queue, 1) });
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: COMPANIES } },
    });
    expect(created.status).toBe(202);
    await queue.drained();
    installPorts({ queue });
    const stuck = (await api.call('GET', `/bd/jobs/${created.body.job_id}`, { key })).body;
    expect(stuck).toMatchObject({ status: 'running' });
    expect(stuck.progress_percent).toBeGreaterThan(0);

    // Not stale yet: left alone.
    clock.advance(4 * MINUTE);
    expect(await superviseJobs({ staleAfterMs: 5 * MINUTE, maxRedrives: 3 })).toMatchObject({
      stalled: 0,
      redriven: 0,
    });

    clock.advance(2 * MINUTE);
    expect(await superviseJobs({ staleAfterMs: 5 * MINUTE, maxRedrives: 3 })).toMatchObject({
      stalled: 1,
      redriven: 1,
      failed: 0,
    });
    await queue.drained();
    const done = (await api.call('GET', `/bd/jobs/${created.body.job_id}`, { key })).body;
    expect(done).toMatchObject({ status: 'completed', progress_percent: 100, error_message: null });

    const money = await settledMoney(user.id, created.body.job_id);
    expect(money.job.creditsCharged).toBe(creditsFor(money.job.units));
    expect(done.credits_charged).toBe(money.job.creditsCharged);
    expect(money.charged).toBe(money.job.creditsCharged);
    expect(money.reservation).toBeUndefined();
    expect(money.balance).toBe(10_000 - money.charged);
    // A closed job leaves the watchdog's index.
    clock.advance(60 * MINUTE);
    expect((await superviseJobs({ staleAfterMs: 5 * MINUTE, maxRedrives: 3 })).stalled).toBe(0);
  });

  it('fails a job whose messages stay lost once its re-drive budget is spent, releasing the reservation; its SSE stream ends with complete', async () => {
    clock.set(new Date('2017-03-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ tier: 'pro', credits: 10_000 });
    installPorts({ queue: losingQueue(queue, 0) });
    try {
      const created = await api.call('POST', '/bd/jobs', {
        key,
        body: { preset: 'full_pipeline', input_assets: { companies: COMPANIES } },
      });
      expect(created.status).toBe(202);
      const jobId = created.body.job_id as string;
      expect((await getBalance(user.id)).available).toBe(10_000 - created.body.credits_reserved);

      const res = await fetch(`${api.baseUrl}/bd/jobs/${jobId}/events`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const readUntil = async (marker: string) => {
        while (!text.includes(marker)) {
          const { value, done } = await reader.read();
          if (done) return false;
          text += decoder.decode(value);
        }
        return true;
      };
      expect(await readUntil('event: progress')).toBe(true);

      for (let redrive = 1; redrive <= 3; redrive++) {
        clock.advance(6 * MINUTE);
        expect(await superviseJobs({ staleAfterMs: 5 * MINUTE, maxRedrives: 3 })).toMatchObject({
          stalled: 1,
          redriven: 1,
          failed: 0,
        });
        expect((await getJob(user.id, jobId, true))!.status).toBe('pending');
      }
      clock.advance(6 * MINUTE);
      expect(await superviseJobs({ staleAfterMs: 5 * MINUTE, maxRedrives: 3 })).toMatchObject({
        stalled: 1,
        redriven: 0,
        failed: 1,
      });

      const failed = (await api.call('GET', `/bd/jobs/${jobId}`, { key })).body;
      expect(failed).toMatchObject({ status: 'failed', credits_charged: 0 });
      expect(failed.error_message).toContain('no progress');
      const money = await settledMoney(user.id, jobId);
      expect(money).toMatchObject({ charged: 0, reservation: undefined, balance: 10_000 });

      expect(await readUntil('event: complete')).toBe(true);
      expect(await readUntil('this marker never comes')).toBe(false); // the server ended the stream
      const events = text.split('\n\n').filter((block) => block.startsWith('id: '));
      expect(events.at(-1)).toMatch(/event: complete\ndata: \{[^\n]*"status":"failed"/);
    } finally {
      installPorts({ queue });
    }
  });
});

describe('growth runs whose start was interrupted', () => {
  it('are failed and their reservation released by the scheduled sweep when nobody reads them', async () => {
    clock.set(new Date('2018-03-01T00:00:00.000Z'));
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1_000 });
    const run = await interruptedGrowthRun(user.id, clock.now().toISOString(), 40);
    const runId = run.runId;

    // Too recent: its start may still be under way.
    expect(await recoverStartingRuns()).toMatchObject({ found: 0 });
    expect((await getRun(user.id, runId))?.status).toBe('pending');

    clock.advance(3 * MINUTE);
    expect(await recoverStartingRuns()).toMatchObject({ found: 1, failed: 1, attached: 0 });
    expect(await getRun(user.id, runId)).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringMatching(/interrupted/),
    });
    expect(await getReservation(user.id, run.reservationId)).toBeUndefined();
    expect((await getBalance(user.id)).available).toBe(1_000);
    expect((await api.call('GET', `/growth/runs/${runId}`, { key })).body.preview.pricing).toEqual({
      quoted_credits: 40,
      charged_credits: 0,
      rebate_credits: 40,
    });
    // Settled runs leave the sweep's index.
    expect((await recoverStartingRuns()).found).toBe(0);
  });
});
