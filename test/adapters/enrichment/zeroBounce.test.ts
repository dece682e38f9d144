import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { zeroBounce } from '#shared/adapters/enrichment/zeroBounce';
import { DEFAULT_CALL_POLICY } from '#shared/adapters/enrichment/port';
import { startZeroBounceStandIn } from '#bin/standIns/zeroBounceStandIn';

const KEY = 'zerobounce-test-key';
const stand = await startZeroBounceStandIn(KEY, {
  'ok@acme-zb.io': { status: 'valid' },
  'any@catchall-zb.io': { status: 'catch-all' },
  'gone@acme-zb.io': { status: 'invalid', sub_status: 'mailbox_not_found' },
  'temp@acme-zb.io': { status: 'do_not_mail', sub_status: 'disposable' },
  'me@gmail.com': { status: 'valid', free_email: true },
});
afterAll(() => stand.close());
beforeEach(() => stand.reset());

const verify = (email: string, key = KEY) =>
  zeroBounce.create({ key, base: stand.apiBase, policy: DEFAULT_CALL_POLICY }).email_verify?.({ email });

describe('ZeroBounce API v2 adapter against the recording stand-in', () => {
  it.each([
    ['ok@acme-zb.io', { status: 'deliverable', reasons: [] }],
    ['any@catchall-zb.io', { status: 'risky', reasons: ['accept_all'] }],
    ['gone@acme-zb.io', { status: 'undeliverable', reasons: ['smtp_rejected'] }],
    ['temp@acme-zb.io', { status: 'undeliverable', reasons: ['disposable'] }],
    ['me@gmail.com', { status: 'risky', reasons: ['free_provider'] }],
  ])('GET /validate for %s maps to our statuses and reasons', async (email, expected) => {
    expect(await verify(email)).toEqual({ ok: true, value: expected });
    expect(stand.calls).toEqual([{ path: '/validate', query: { api_key: KEY, email, ip_address: '' } }]);
  });

  it('a refused key (a 200 whose body is an error) fails and stops the provider', async () => {
    expect(await verify('ok@acme-zb.io', 'wrong')).toMatchObject({
      ok: false,
      stop: true,
      error: 'zerobounce /validate: Invalid API key or your account ran out of credits',
    });
  });
});
