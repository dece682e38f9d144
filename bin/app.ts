import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, App, Tags, Validations } from 'aws-cdk-lib';
import { OPENAPI_SIDE_FILE } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { openApiFileText } from '#shared/http/openApiFile';
import { AwsSolutionsChecks } from 'cdk-nag';
import { OutreachIntelligenceStack } from '#infra/stack';
import { STRIPE_SECRET_FIELDS, stripeSettingsFrom } from '#infra/stripeSettings';

/**
 * The CDK app (`npx cdk synth` / `npx cdk deploy`). Environment-agnostic: no account or region
 * lookups, so synth works offline; the deploy takes both from the caller's AWS profile.
 */
// The public function ships functions/public/openapi.json as it is: never deploy one the schemas have moved past.
if (readFileSync(join(PROJECT_ROOT, OPENAPI_SIDE_FILE), 'utf8') !== openApiFileText()) {
  throw new Error(
    `${OPENAPI_SIDE_FILE} is out of date with the endpoint schemas: run \`npm run openapi\` and commit it.`,
  );
}

const app = new App();
const stripe = stripeSettingsFrom(app.node);
const stack = new OutreachIntelligenceStack(app, 'OutreachIntelligenceApi', {
  description:
    'Outreach Intelligence API: credit-metered growth intelligence, enrichment jobs and community moderation',
  stripe,
  publicBaseUrl: app.node.tryGetContext('publicBaseUrl') ?? process.env.PUBLIC_BASE_URL,
  alarmEmail: app.node.tryGetContext('alarmEmail') ?? process.env.ALARM_EMAIL,
  logLevel: app.node.tryGetContext('logLevel') ?? process.env.LOG_LEVEL,
  discordApplicationId: app.node.tryGetContext('discordApplicationId') ?? process.env.DISCORD_APPLICATION_ID,
  phishingListUrl: app.node.tryGetContext('phishingListUrl') ?? process.env.PHISHING_LIST_URL,
});
Tags.of(app).add('project', 'outreach-intelligence');

// Raw secrets in the deploy environment would end up in the template: they are not read.
const rawSecrets = STRIPE_SECRET_FIELDS.filter((name) => process.env[name]);
if (rawSecrets.length && !stripe.secretName) {
  Annotations.of(stack).addWarningV2(
    'outreach:stripe-secrets-from-env',
    `Ignoring ${rawSecrets.join(' and ')} from the environment: store the Stripe secrets in a Secrets Manager secret and pass its name as STRIPE_SECRET_NAME (or -c stripeSecretName=...).`,
  );
}

// Every synth is checked against the AwsSolutions pack; a finding not acknowledged, with its reason,
// in infra/nagAcknowledgements.ts stops it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
