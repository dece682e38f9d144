import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { baseUrlOf } from '#shared/http/api';
import { startTestApi } from '#test/support/api';
import { reloadConfig } from '#shared/config/config';

/**
 * the links the service hands out and the requests it makes never follow the
 * caller's Host or X-Forwarded-* headers, which would let one caller point another's links (or the
 * cached OpenAPI document) at a host of their choosing, or turn a plain-http local link into https.
 */
const api = await startTestApi();
const own = `http://127.0.0.1:${new URL(api.baseUrl).port}/api/v1`;
const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('links point at the service itself, whatever the caller says', () => {
  it('builds checkout_url from the server, not from Host or X-Forwarded-*', async () => {
    const { key } = await api.newUser();
    const session = await api.call('POST', '/subscriptions/checkout-session', {
      key,
      body: { tier: 'pro' },
      headers: forged,
    });
    expect(session.status).toBe(200);
    expect(session.body.checkout_url).toBe(`${own}/checkout/${session.body.checkout_session_id}`);
  });

  it('does not let the first caller of the OpenAPI document choose its servers entry for everyone', async () => {
    const poisoned = await api.call('GET', '/openapi.json', { headers: forged });
    const plain = await api.call('GET', '/openapi.json');
    expect(poisoned.body.servers).toEqual([{ url: own.replace(/\/api\/v1$/, '') }]);
    expect(plain.body.servers).toEqual(poisoned.body.servers);
  });

  it('pays a local checkout in process: forged headers neither redirect nor break fulfilment', async () => {
    const { key } = await api.newUser();
    const session = (await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'pro' } })).body;
    const paid = await api.call('POST', `${session.checkout_url}/pay`, {
      headers: { ...forged, 'x-forwarded-host': '127.0.0.1:9' },
    });
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('Payment complete');
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'pro',
      status: 'active',
    });
  });
});

describe('baseUrlOf', () => {
  const saved = process.env.PUBLIC_BASE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_BASE_URL;
    else process.env.PUBLIC_BASE_URL = saved;
    reloadConfig();
  });
  const event = (domainName: string, stage: string) =>
    ({ headers: forged, requestContext: { domainName, stage } }) as unknown as APIGatewayProxyEvent;

  it("uses API Gateway's own domain and stage, https, when nothing is configured", () => {
    delete process.env.PUBLIC_BASE_URL;
    reloadConfig();
    expect(baseUrlOf(event('abc123.execute-api.eu-west-1.amazonaws.com', 'prod'))).toBe(
      'https://abc123.execute-api.eu-west-1.amazonaws.com/prod/api/v1',
    );
    expect(baseUrlOf(event('api.example.com', 'prod'))).toBe('https://api.example.com/api/v1');
  });

  it('prefers the configured public base URL', () => {
    process.env.PUBLIC_BASE_URL = 'https://api.example.com/api/v1/';
    reloadConfig();
    expect(baseUrlOf(event('abc123.execute-api.eu-west-1.amazonaws.com', 'prod'))).toBe(
      'https://api.example.com/api/v1',
    );
  });
});
