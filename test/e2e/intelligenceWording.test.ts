import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { coverageNote } from '#shared/domain/intelligence/coverage';
import { PACKAGES } from '#shared/domain/intelligence/packages';

// Sentences the API writes about a count read right at one as at many ("1 person matches", never "1 people match").
const api = await startTestApi();

describe('counts in coverage notes and quote summaries', () => {
  it('a note about one candidate names it in the singular, of every package', () => {
    expect(coverageNote(PACKAGES['company-people-discovery-v1'], 'limited', 1, 5)).toBe(
      'Only 1 person matches, fewer than the 5 asked for; execute returns 1 and charges only for that one.',
    );
    expect(coverageNote(PACKAGES['company-people-discovery-v1'], 'limited', 3, 5)).toBe(
      'Only 3 people match, fewer than the 5 asked for; execute returns 3 and charges only for those.',
    );
    for (const pkg of Object.values(PACKAGES)) {
      const note = coverageNote(pkg, 'limited', 1, 5)!;
      expect(note, pkg.id).toMatch(/^Only 1 [A-Za-z ]+[^s] matches,/);
    }
  });

  it('a quote for one record says so in the singular', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const res = await api.call('POST', '/intelligence/quote', {
      key,
      body: { package_id: 'company-people-discovery-v1', slots: { company_name: 'Quiet Protocol', limit: 1 } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.output_projection_summary).toMatch(/^Up to 1 person with \d+ Tier 1 fields? \(/);
    expect(res.body.output_projection_summary).toMatch(/; 3 candidates match, so 1 would be returned/);
  });
});
