import { describe, expect, it } from 'vitest';
import { roleFocusIn } from '#shared/domain/growth/roleFocus';
import { startTestApi, type TestApi } from '#test/support/api';

/**
 * a goal that says who ("the founders", "CTOs", "marketing leads") carries that
 * role focus in its resolved plan, contact discovery keeps only those people, and the caller's own
 * columns (company name, website as written) come back in the export.
 */
const api: TestApi = await startTestApi();
const CSV = 'Company,Website\nNebula Labs,https://nebulalabs.io/\nQuiet Protocol,https://www.quietprotocol.xyz\n';

async function finished(key: string, runId: string) {
  for (let i = 0; i < 100; i++) {
    await api.ports.queue.drained();
    const res = await api.call('GET', `/growth/runs/${runId}`, { key });
    if (['completed', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('run did not finish');
}

describe('growth goals say who', () => {
  it('reads the roles a goal names, plurals and all', () => {
    expect(roleFocusIn('Book intros with the founders of these protocols')).toEqual(['founder', 'ceo']);
    expect(roleFocusIn('find CTOs at L2 teams')).toEqual(['cto']);
    expect(roleFocusIn('reach their marketing leads')).toEqual(['marketing', 'cmo', 'growth', 'content']);
    expect(roleFocusIn('work emails for this list')).toEqual([]);
  });

  it('puts the role focus in the plan, discovers only those people and exports the input columns as given', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const resolved = await api.call('POST', '/growth/resolve', {
      key,
      body: { goal_text: 'Find the founders of these companies and their work emails', input_text: CSV },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.goal_plan.execution_options.role_focus).toEqual(['founder', 'ceo']);
    expect(resolved.body.goal_plan.capabilities).toContain('contact_discovery');
    expect(resolved.body.goal_plan.input_assets.companies).toContainEqual({
      company_name: 'Nebula Labs',
      domain: 'nebulalabs.io',
      website: 'https://nebulalabs.io/',
    });

    const quote = await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolved.body.goal_plan } });
    expect(quote.body.ok, JSON.stringify(quote.body)).toBe(true);
    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.body.quote_token, goal_plan: quote.body.goal_plan },
    });
    expect(started.status).toBe(202);
    const run = await finished(key, started.body.run_id);
    expect(run.status).toBe('completed');

    const exported = await api.call('GET', `/growth/runs/${started.body.run_id}/export?format=json`, { key });
    expect(exported.status).toBe(200);
    const rows = exported.body.rows as {
      company_name: string;
      website: string | null;
      title: string | null;
      contact_source: string | null;
    }[];
    const discovered = rows.filter((r) => r.contact_source === 'contact_discovery');
    expect(discovered.length).toBeGreaterThan(0);
    for (const row of discovered) expect(row.title?.toLowerCase()).toMatch(/founder|ceo/);
    expect(rows.find((r) => r.company_name === 'Nebula Labs')?.website).toBe('https://nebulalabs.io/');
  });
});
