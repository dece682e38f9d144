import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import type { FunctionName } from '#infra/functionCatalog';
import { STRIPE_PRICE_VARIABLES, stripeSettingsFrom } from '#infra/stripeSettings';
import { synthesize } from './synth';

const envOf = (s: ReturnType<typeof synthesize>, name: FunctionName): Record<string, unknown> =>
  s.resources('AWS::Lambda::Function')[s.logicalId(s.stack.functions[name].fn)].Properties.Environment.Variables;

describe('Stripe settings', () => {
  it('are read from CDK context first, then from the deploy environment', () => {
    const app = new App({ context: { stripeSecretName: 'from-context', stripePricePro: 'price_ctx_pro' } });
    const settings = stripeSettingsFrom(app.node, {
      STRIPE_SECRET_NAME: 'from-env',
      STRIPE_PRICE_PRO: 'price_env_pro',
      STRIPE_PRICE_CREDITS_10K: 'price_env_10k',
      STRIPE_PRICE_CREDITS_50K: '',
    });
    expect(settings).toEqual({
      secretName: 'from-context',
      prices: { STRIPE_PRICE_PRO: 'price_ctx_pro', STRIPE_PRICE_CREDITS_10K: 'price_env_10k' },
    });
    expect(STRIPE_PRICE_VARIABLES).toEqual([
      'STRIPE_PRICE_PRO',
      'STRIPE_PRICE_CREDITS_10K',
      'STRIPE_PRICE_CREDITS_50K',
    ]);
  });

  it("reach only the account and webhooks functions as the secret's name, read at run time with a read grant", () => {
    const s = synthesize({
      bundle: false,
      props: { stripe: { secretName: 'prod/stripe', prices: { STRIPE_PRICE_PRO: 'price_123' } } },
    });
    for (const name of ['account', 'webhooks'] as const) {
      expect(envOf(s, name)).toMatchObject({ STRIPE_SECRET_NAME: 'prod/stripe', STRIPE_PRICE_PRO: 'price_123' });
      expect(envOf(s, name)).not.toHaveProperty('STRIPE_SECRET_KEY');
      expect(envOf(s, name)).not.toHaveProperty('STRIPE_WEBHOOK_SECRET');
    }
    // No value of the secret anywhere in the template, not even as a dynamic reference.
    expect(JSON.stringify(s.template.toJSON())).not.toContain('resolve:secretsmanager');
    // Only the Stripe secret's readers (the platform secret has readers of its own).
    const readers = Object.values(s.resources('AWS::IAM::Policy'))
      .filter((p: any) =>
        p.Properties.PolicyDocument.Statement.some(
          (st: any) =>
            [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
            JSON.stringify(st.Resource).includes('prod/stripe'),
        ),
      )
      .flatMap((p: any) => p.Properties.Roles.map((r: any) => r.Ref));
    const roleOf = (name: FunctionName) =>
      s.resources('AWS::Lambda::Function')[s.logicalId(s.stack.functions[name].fn)].Properties.Role['Fn::GetAtt'][0];
    expect(new Set(readers)).toEqual(new Set([roleOf('account'), roleOf('webhooks')]));
    for (const name of ['storage', 'jobs', 'worker', 'authorizer', 'public'] as const) {
      expect(
        Object.keys(envOf(s, name)).filter((k) => k.startsWith('STRIPE_')),
        name,
      ).toEqual([]);
    }
  });

  it('are absent when nothing is configured, so no secret default ever lands in the template', () => {
    const s = synthesize({ bundle: false });
    expect(JSON.stringify(s.template.toJSON())).not.toContain('STRIPE_');
  });
});
