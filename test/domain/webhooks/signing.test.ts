import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newEndpointSecret, signWebhook } from '#shared/domain/webhooks/signing';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayAfter, shouldDisable } from '#shared/domain/webhooks/schedule';

describe('Standard Webhooks signing', () => {
  it("reproduces the specification's published example signature", () => {
    // From the Standard Webhooks specification (spec/standard-webhooks.md, "Signature scheme" example).
    const headers = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330 * 1000),
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it("a fresh secret signs what the library's verifier accepts, and a tampered body is refused", () => {
    const secret = newEndpointSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ id: 'evt', type: 'job.completed' });
    const headers = signWebhook(secret, 'evt_1', new Date(), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
    expect(() => new Webhook(newEndpointSecret()).verify(body, { ...headers })).toThrow();
  });

  it('two secrets are never the same', () => {
    expect(new Set(Array.from({ length: 50 }, newEndpointSecret)).size).toBe(50);
  });
});

describe('retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt', () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayAfter(i + 1));
    expect(delays).toEqual([
      5_000,
      300_000,
      1_800_000,
      7_200_000,
      18_000_000,
      36_000_000,
      36_000_000,
      null,
      null,
      null,
    ]);
    expect(MAX_ATTEMPTS).toBe(RETRY_DELAYS_MS.length + 1);
  });

  it('a manual retry budget ends the schedule at its own attempt count', () => {
    expect(retryDelayAfter(9, 9)).toBeNull();
    expect(retryDelayAfter(3, 9)).toBe(1_800_000);
  });

  it('disables an endpoint only after 5 full days of failures', () => {
    const since = '2026-01-01T00:00:00.000Z';
    expect(shouldDisable(null, new Date('2026-02-01T00:00:00.000Z'))).toBe(false);
    expect(shouldDisable(since, new Date('2026-01-05T23:59:59.999Z'))).toBe(false);
    expect(shouldDisable(since, new Date('2026-01-06T00:00:00.000Z'))).toBe(true);
  });
});
