import { describe, expect, it } from 'vitest';
import { startTestApi } from '../support/api';

const api = await startTestApi();

describe('Cache-Control: no-store on secrets and authenticated responses', () => {
  it('marks the rotated key, the profile and errors no-store; a public document stays cacheable', async () => {
    const { key } = await api.newUser();
    const rotated = await api.call('POST', '/users/me/api-key', { key });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const me = await api.call('GET', '/users/me', { key: rotated.body.api_key });
    expect(me.headers.get('cache-control')).toBe('no-store');
    const unauthorized = await api.call('GET', '/users/me', { key });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('cache-control')).toBe('no-store');
    const health = await api.call('GET', '/health');
    expect(health.headers.get('cache-control')).toBeNull();
  });

  it("marks the local server's own error answers and the event stream's errors no-store", async () => {
    const missing = await api.call('GET', '/no-such-endpoint');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const { key } = await api.newUser();
    const notAcceptable = await api.call('GET', '/bd/jobs/00000000-0000-7000-8000-000000000000/events', { key, headers: { accept: 'application/json' } });
    expect(notAcceptable.status).toBeGreaterThanOrEqual(400);
    expect(notAcceptable.headers.get('cache-control')).toBe('no-store');
  });
});
