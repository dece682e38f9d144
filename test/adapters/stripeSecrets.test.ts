import { afterEach, describe, expect, it } from 'vitest';
import { stripeSecret } from '#shared/config/secrets';
import { startAwsStandIn } from '#test/support/awsStandIn';

/**
 * in AWS the functions hold only the secret's name and read its value from Secrets
 * Manager at run time (Powertools Parameters, cached); the real client is pointed at a recording
 * stand-in through the SDK's own endpoint variable.
 */
const saved = { ...process.env };
afterEach(() => {
  for (const name of [
    'STRIPE_SECRET_NAME',
    'AWS_ENDPOINT_URL_SECRETS_MANAGER',
    'AWS_REGION',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'STRIPE_SECRET_KEY',
  ]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('Stripe secrets', () => {
  it('come from the environment when no secret is named (local runs and tests)', async () => {
    process.env.STRIPE_SECRET_KEY = 'sk_test_local';
    expect(await stripeSecret('STRIPE_SECRET_KEY')).toBe('sk_test_local');
  });

  it('are read from the named secret at run time, once, then served from the cache', async () => {
    const secretString = JSON.stringify({
      STRIPE_SECRET_KEY: 'sk_live_from_sm',
      STRIPE_WEBHOOK_SECRET: 'whsec_from_sm',
    });
    const standIn = await startAwsStandIn({
      'secretsmanager.GetSecretValue': [{ Name: 'prod/stripe', SecretString: secretString }],
    });
    try {
      Object.assign(process.env, {
        STRIPE_SECRET_NAME: 'prod/stripe',
        STRIPE_SECRET_KEY: 'sk_ignored_when_a_secret_is_named',
        AWS_ENDPOINT_URL_SECRETS_MANAGER: standIn.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      });
      expect(await stripeSecret('STRIPE_SECRET_KEY')).toBe('sk_live_from_sm');
      expect(await stripeSecret('STRIPE_WEBHOOK_SECRET')).toBe('whsec_from_sm');
      expect(standIn.calls).toEqual([{ target: 'secretsmanager.GetSecretValue', body: { SecretId: 'prod/stripe' } }]);
    } finally {
      await standIn.close();
    }
  });
});
