import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '#bin/local/runtime';
import { getBalance, ledgerBetween } from '#shared/domain/credits/credits';
import { creditsFor } from '#shared/domain/jobs/pricing';
import { findUserIdByEmail } from '#shared/store/usersRepo';
import { getJob } from '#shared/store/jobsRepo';
import { getReservation } from '#shared/store/walletRepo';
import { uuidv7 } from '#shared/ids';

/*
 * The runtime `npm start` runs, on a table of its own in the test DynamoDB Local (a small dataset,
 * its own demo accounts), so its start-up resume only ever sees this file's jobs.
 */
const tableName = `outreach-restart-${uuidv7()}`;
const start = (dataDir = '', table = tableName) =>
  startLocalRuntime({
    port: 0,
    dataDir,
    fresh: false,
    renewalsEverySeconds: 3600,
    dynamo: { endpoint: inject('dynamoEndpoint'), tableName: table, datasetScale: 0.01 },
  });

async function call(runtime: LocalRuntime, method: string, path: string, body?: unknown, key = runtime.proKey) {
  const res = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const companies = [
  { company_name: 'Nebula Labs', website: 'https://www.nebulalabs.io/about' },
  { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
  ...Array.from({ length: 58 }, (_, i) => ({ company_name: `Restart Co ${i}`, domain: `restart-co-${i}.io` })),
];

describe('local runtime restart', () => {
  it('resumes a job whose queued messages died with the process, to completion with its reservation settled', {
    timeout: 180_000,
  }, async () => {
    const first = await start();
    await first.datasetLoaded;
    const userId = (await findUserIdByEmail('demo-pro@example.com'))!;
    const before = (await getBalance(userId)).available;
    const created = await call(first, 'POST', '/bd/jobs', { preset: 'full_pipeline', input_assets: { companies } });
    expect(created.status).toBe(202);
    const jobId = created.body.job_id as string;
    await first.stop();

    // Stopped mid-way: nothing is left to move the job on.
    const stopped = (await getJob(userId, jobId, true))!;
    expect(['pending', 'running']).toContain(stopped.status);
    await new Promise((r) => setTimeout(r, 300));
    expect((await getJob(userId, jobId, true))!.version).toBe(stopped.version);
    expect(await getReservation(userId, stopped.reservationId)).toBeDefined();

    const second = await start();
    try {
      await second.ports.queue.drained();
      const job = (await call(second, 'GET', `/bd/jobs/${jobId}`)).body;
      expect(job).toMatchObject({ status: 'completed', progress_percent: 100, error_message: null });
      const record = (await getJob(userId, jobId, true))!;
      expect(job.credits_charged).toBe(creditsFor(record.units));
      expect(job.credits_charged).toBeGreaterThan(0);
      expect(record.doneUnits).toBe(record.totalUnits);
      expect(await getReservation(userId, record.reservationId)).toBeUndefined();
      const charges = (await ledgerBetween(userId, '2000-01-01', '2100-01-01')).filter((e) => e.ref_id === jobId);
      expect(charges.reduce((s, e) => s + e.credits, 0)).toBe(job.credits_charged);
      expect((await getBalance(userId)).available).toBe(before - job.credits_charged);
    } finally {
      await second.stop();
    }
  });

  it('prints the same demo keys after a restart (kept with the data); a DEMO_* variable still wins', {
    timeout: 90_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-keys-'));
    const table = `outreach-keys-${uuidv7()}`;
    const first = await start(dataDir, table);
    const { proKey, developerKey } = first;
    await first.stop();
    const second = await start(dataDir, table);
    try {
      expect([second.proKey, second.developerKey]).toEqual([proKey, developerKey]);
      expect((await call(second, 'GET', '/users/me')).body).toMatchObject({ email: 'demo-pro@example.com' });
    } finally {
      await second.stop();
    }
    const fixed = `oik_${'F'.repeat(40)}`;
    process.env.DEMO_PRO_API_KEY = fixed;
    try {
      const third = await start(dataDir, table);
      await third.stop();
      expect([third.proKey, third.developerKey]).toEqual([fixed, developerKey]);
    } finally {
      delete process.env.DEMO_PRO_API_KEY;
    }
    // The key the variable set stays the account's key, and is shown, after the variable is gone.
    const fourth = await start(dataDir, table);
    await fourth.stop();
    expect([fourth.proKey, fourth.developerKey]).toEqual([fixed, developerKey]);
  });

  it('keeps a key rotated over the API across a restart, and says it cannot show it', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-keys-'));
    const table = `outreach-keys-${uuidv7()}`;
    const first = await start(dataDir, table);
    const printed = first.proKey!;
    let rotated = '';
    try {
      const answer = await call(first, 'POST', '/users/me/api-key');
      expect(answer.status).toBe(200);
      rotated = answer.body.api_key;
      expect(rotated).toMatch(/^oik_/);
    } finally {
      await first.stop();
    }
    const second = await start(dataDir, table);
    try {
      expect(second.proKey).toBeUndefined();
      expect(second.developerKey).toBe(first.developerKey);
      expect((await call(second, 'GET', '/users/me', undefined, rotated)).status).toBe(200);
      expect((await call(second, 'GET', '/users/me', undefined, printed)).status).toBe(401);
    } finally {
      await second.stop();
    }
    // Still so on the next start: the rotated key is the account's until it is rotated again.
    const third = await start(dataDir, table);
    try {
      expect(third.proKey).toBeUndefined();
      expect((await call(third, 'GET', '/users/me', undefined, rotated)).status).toBe(200);
    } finally {
      await third.stop();
    }
  });
});
