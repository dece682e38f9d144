import { SecretValue } from 'aws-cdk-lib';
import type { Node } from 'constructs';
import { ADD_ONS, PRO_PLAN } from '../shared/domain/billing/plans';

/** The secrets the runtime reads as environment variables (shared/adapters/payments.ts, billing/webhooks.ts). */
export const STRIPE_SECRET_FIELDS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
/** Price ids are configuration, not secrets; the names come from the plans table. */
export const STRIPE_PRICE_VARIABLES = [PRO_PLAN.stripePriceEnv, ...Object.values(ADD_ONS).map((a) => a.stripePriceEnv)];

export interface StripeSettings {
  /** Name or ARN of a Secrets Manager secret whose JSON has the STRIPE_SECRET_FIELDS keys. */
  secretName?: string;
  /** STRIPE_PRICE_* variable → Stripe price id. */
  prices: Record<string, string>;
}

/** STRIPE_PRICE_PRO → stripePricePro, the CDK context key of the same setting. */
const contextKeyOf = (variable: string) => variable.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Reads the Stripe settings at synth time from CDK context (`-c stripeSecretName=...`) or else the
 * deploy environment (STRIPE_SECRET_NAME=...). With no secret the functions get no Stripe keys:
 * checkout falls back to the local checkout page and webhooks cannot be verified (500).
 */
export function stripeSettingsFrom(node: Node, env: NodeJS.ProcessEnv = process.env): StripeSettings {
  const setting = (variable: string): string | undefined => {
    const value = node.tryGetContext(contextKeyOf(variable)) ?? env[variable];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const prices: Record<string, string> = {};
  for (const variable of STRIPE_PRICE_VARIABLES) {
    const value = setting(variable);
    if (value) prices[variable] = value;
  }
  return { secretName: setting('STRIPE_SECRET_NAME'), prices };
}

/**
 * The environment of the functions that talk to Stripe. The secrets are CloudFormation dynamic
 * references ({{resolve:secretsmanager:...}}) that CloudFormation resolves at deploy time, so their
 * values are never in the template, in cdk.out or in git, the runtime keeps reading plain
 * environment variables, and the functions need no secretsmanager:GetSecretValue nor a cold-start
 * call. The price of that simplicity: the values are visible to whoever may read the functions'
 * configuration, and a rotated secret takes effect at the next deploy.
 */
export function stripeEnvironment(settings: StripeSettings): Record<string, string> {
  const environment: Record<string, string> = { ...settings.prices };
  if (settings.secretName) {
    for (const field of STRIPE_SECRET_FIELDS) {
      environment[field] = SecretValue.secretsManager(settings.secretName, { jsonField: field }).unsafeUnwrap();
    }
  }
  return environment;
}
