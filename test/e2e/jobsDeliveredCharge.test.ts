import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { getBalance, ledgerBetween } from '#shared/domain/credits/credits';
import { alikeNamedContacts } from '#test/support/alikeContacts';

const api = await startTestApi();

describe('a job is charged for the rows it delivers', () => {
  it('verifies a list where one address appears twice: every distinct address delivered, the charge equals the delivered units', async () => {
    // Prepare: alike names at distinct addresses (same name, placeholder, non-Latin) must each be delivered; one address twice collapses.
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1_000 });
    const contacts = alikeNamedContacts('nebulalabs.io');
    const distinct = new Set(contacts.map((c) => c.email.toLowerCase())).size;

    // Act
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'verify_existing_emails', input_assets: { contacts } },
    });
    expect(created.status).toBe(202);
    await api.ports.queue.drained();
    const job = (await api.call('GET', `/bd/jobs/${created.body.job_id}`, { key })).body;

    // Assess
    expect(job.status).toBe('completed');
    // Every input address was checked (consumed), but only the distinct ones are delivered and charged.
    expect(job.stats.units.email_verify).toBe(contacts.length);
    const rows = (await api.call('GET', `/bd/jobs/${job.job_id}/export?format=json`, { key })).body.rows;
    expect(rows.map((r: { email: string }) => r.email)).toEqual([
      ...new Set(contacts.map((c) => c.email.toLowerCase())),
    ]);
    expect(job.stats.rows_delivered).toBe(distinct);
    expect(job.stats.duplicates_removed).toBe(contacts.length - distinct);
    const deliveredUnits = rows.filter((r: { email_status: string | null }) => r.email_status !== null).length;
    expect(deliveredUnits).toBe(distinct);
    expect(job.credits_charged).toBe(deliveredUnits * 1);
    const entries = (await ledgerBetween(user.id, '2000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z')).filter(
      (e) => e.tool_name === 'bd_job',
    );
    expect(entries.reduce((sum, e) => sum + e.credits, 0)).toBe(job.credits_charged);
    expect((await getBalance(user.id)).available).toBe(1_000 - job.credits_charged);
  });
});
