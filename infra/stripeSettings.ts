import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, Node } from 'constructs';
import { ADD_ONS, PRO_PLAN } from '#shared/domain/billing/plans';

/** The fields of the Stripe secret (read through the secrets port); locally, variables of the same names. */
export { STRIPE_SECRET_FIELDS } from '#shared/adapters/secrets';
/** Price ids are configuration, not secrets; the names come from the plans table. */
export const STRIPE_PRICE_VARIABLES = [PRO_PLAN.stripePriceEnv, ...Object.values(ADD_ONS).map((a) => a.stripePriceEnv)];

export interface StripeSettings {
  /** Name or ARN of a Secrets Manager secret whose JSON has the STRIPE_SECRET_FIELDS keys. */
  secretName?: string;
  /** STRIPE_PRICE_* variable → Stripe price id. */
  prices: Record<string, string>;
}

/** STRIPE_PRICE_PRO → stripePricePro, the CDK context key of the same setting. */
const contextKeyOf = (variable: string) =>
  variable.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

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
 * The environment of the functions that talk to Stripe: the price ids and only the *name* of the
 * secret. The functions read the secret's value at run time (the secrets port, shared/adapters/secrets.ts: Powertools
 * Parameters, cached five minutes), so it is never in the template, in cdk.out or in the functions'
 * configuration, and a rotated secret takes effect within minutes without a deploy.
 */
export function stripeEnvironment(settings: StripeSettings): Record<string, string> {
  return { ...settings.prices, ...(settings.secretName ? { STRIPE_SECRET_NAME: settings.secretName } : {}) };
}

/** Lets the Stripe functions read the secret (and nothing else in Secrets Manager). */
export function grantStripeSecret(scope: Construct, settings: StripeSettings, functions: IGrantable[]): void {
  if (!settings.secretName) return;
  const secret = settings.secretName.startsWith('arn:')
    ? secretsmanager.Secret.fromSecretPartialArn(scope, 'StripeSecret', settings.secretName)
    : secretsmanager.Secret.fromSecretNameV2(scope, 'StripeSecret', settings.secretName);
  for (const fn of functions) secret.grantRead(fn);
}
