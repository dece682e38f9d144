import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { OutreachIntelligenceStack } from '../infra/stack';
import { stripeSettingsFrom } from '../infra/stripeSettings';

/**
 * The CDK app (`npx cdk synth` / `npx cdk deploy`). Environment-agnostic: no account or region
 * lookups, so synth works offline; the deploy takes both from the caller's AWS profile.
 */
const app = new App();
new OutreachIntelligenceStack(app, 'OutreachIntelligenceApi', {
  description: 'Outreach Intelligence API: credit-metered growth intelligence, enrichment jobs and community moderation',
  stripe: stripeSettingsFrom(app.node),
});
Tags.of(app).add('project', 'outreach-intelligence');
// Every synth is checked against the AwsSolutions pack; a finding not acknowledged (with its reason)
// in infra/nagAcknowledgements.ts stops it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
