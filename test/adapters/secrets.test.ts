import { afterEach, describe, expect, it } from 'vitest';
import { installPorts, runFenced } from '#shared/adapters/ports';
import {
  EnvSecrets,
  readSecret,
  SecretsManagerSecrets,
  STRIPE_SECRET_FIELDS,
  stripeSecret,
} from '#shared/adapters/secrets';
import { credentialsFrom, platformCredentials, platformSecretNames } from '#shared/platforms/credentials';
import { parseConfig, reloadConfig } from '#shared/config/config';
import { startAwsStandIn } from '#test/support/awsStandIn';

/**
 * The one secrets port. Locally it reads the environment at every call; in AWS each secret is read
 * from Secrets Manager (Powertools Parameters over the real SDK client, pointed at a recording
 * stand-in through the SDK's own endpoint variable) once, then served from the one cache.
 */
const AWS_VARIABLES = ['AWS_ENDPOINT_URL_SECRETS_MANAGER', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];
const saved = Object.fromEntries(
  [...AWS_VARIABLES, 'STRIPE_SECRET_KEY', 'TELEGRAM_BOT_TOKEN'].map((n) => [n, process.env[n]]),
);
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
});

describe('secrets port, local', () => {
  it('reads Stripe and platform secrets from the environment at every call', async () => {
    installPorts({ secrets: new EnvSecrets() });
    process.env.STRIPE_SECRET_KEY = 'sk_test_local';
    process.env.TELEGRAM_BOT_TOKEN = '1:first';
    expect(await stripeSecret('STRIPE_SECRET_KEY')).toBe('sk_test_local');
    expect((await platformCredentials()).telegram.botToken).toBe('1:first');
    process.env.TELEGRAM_BOT_TOKEN = '1:second';
    expect((await platformCredentials()).telegram.botToken).toBe('1:second');
  });

  it('refuses a secret the running function is not wired to, as its IAM role would', async () => {
    installPorts({ secrets: new EnvSecrets() });
    await expect(
      runFenced('moderation', ['secrets'], () => readSecret('stripe', STRIPE_SECRET_FIELDS)),
    ).rejects.toThrow('Secret stripe is not readable: function moderation is not wired to it');
    await expect(
      runFenced('webhooks', ['secrets'], () => readSecret('platforms', platformSecretNames())),
    ).rejects.toThrow('Secret platforms is not readable: function webhooks is not wired to it');
    await expect(
      runFenced('webhooks', ['secrets'], () => readSecret('stripe', STRIPE_SECRET_FIELDS)),
    ).resolves.toHaveProperty('STRIPE_WEBHOOK_SECRET');
  });
});

describe('secrets port, AWS (Powertools Parameters)', () => {
  it('reads each secret by its id once, then serves both from the cache', async () => {
    const standIn = await startAwsStandIn({
      'secretsmanager.GetSecretValue': [
        (body: { SecretId: string }) =>
          body.SecretId === 'prod/stripe'
            ? { Name: 'prod/stripe', SecretString: JSON.stringify({ STRIPE_SECRET_KEY: 'sk_live_from_sm' }) }
            : {
                Name: 'platforms',
                SecretString: JSON.stringify({ TELEGRAM_BOT_TOKEN: 't1', DISCORD_PUBLIC_KEY: 'ab' }),
              },
        (body: { SecretId: string }) =>
          body.SecretId === 'prod/stripe'
            ? { Name: 'prod/stripe', SecretString: JSON.stringify({ STRIPE_SECRET_KEY: 'sk_live_from_sm' }) }
            : {
                Name: 'platforms',
                SecretString: JSON.stringify({ TELEGRAM_BOT_TOKEN: 't1', DISCORD_PUBLIC_KEY: 'ab' }),
              },
      ],
    });
    try {
      Object.assign(process.env, {
        AWS_ENDPOINT_URL_SECRETS_MANAGER: standIn.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      });
      const arn = 'arn:aws:secretsmanager:us-east-1:1:secret:platforms';
      const secrets = new SecretsManagerSecrets({ platforms: arn, stripe: 'prod/stripe', providers: undefined });
      expect(await secrets.read('stripe', STRIPE_SECRET_FIELDS)).toEqual({
        STRIPE_SECRET_KEY: 'sk_live_from_sm',
        STRIPE_WEBHOOK_SECRET: undefined,
      });
      const platforms = await secrets.read('platforms', platformSecretNames());
      await secrets.read('platforms', platformSecretNames());
      await secrets.read('stripe', STRIPE_SECRET_FIELDS);
      const credentials = credentialsFrom(platforms, parseConfig({}).platforms);
      expect(credentials.telegram).toMatchObject({ botToken: 't1', apiBase: 'https://api.telegram.org' });
      expect(credentials.discord).toMatchObject({ publicKey: 'ab' });
      expect(standIn.calls).toEqual([
        { target: 'secretsmanager.GetSecretValue', body: { SecretId: 'prod/stripe' } },
        { target: 'secretsmanager.GetSecretValue', body: { SecretId: arn } },
      ]);
    } finally {
      await standIn.close();
    }
  });

  it('a secret with no id configured has no values and asks nothing', async () => {
    const secrets = new SecretsManagerSecrets({ platforms: undefined, stripe: undefined, providers: undefined });
    expect(await secrets.read('stripe', STRIPE_SECRET_FIELDS)).toEqual({
      STRIPE_SECRET_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
    });
    expect(Object.values(await secrets.read('platforms', platformSecretNames())).every((v) => v === undefined)).toBe(
      true,
    );
  });
});
