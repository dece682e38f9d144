import { describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '#test/support/api';

const api: TestApi = await startTestApi();
const GOAL = 'Find the work emails of the team at these companies';

describe('POST /growth/resolve with input_text that holds no value', () => {
  it('answers 400 validation_error naming input_text for a text of only separators, never 500', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100 });
    for (const input_text of [','.repeat(50_000), '|'.repeat(50_000), ';\t;\t;', '"']) {
      const res = await api.call('POST', '/growth/resolve', { key, body: { goal_text: GOAL, input_text } });
      expect(res.status, JSON.stringify(input_text.slice(0, 10))).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'validation_error',
        details: [expect.objectContaining({ path: 'input_text' })],
      });
    }
  });

  it('still answers 200 for a crafted 50,000-character value, reporting it as unusable', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100 });
    const res = await api.call('POST', '/growth/resolve', {
      key,
      body: { goal_text: GOAL, input_text: `a@${'b.'.repeat(24_990)}@` },
    });
    expect(res.status).toBe(200);
    expect(res.body.input_report.input_text_format).toBe('csv');
  });
});
