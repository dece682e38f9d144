import { CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { API_GROUPS } from '#shared/schemas/groups';
import { platformSecretNames } from '#shared/platforms/credentials';
import { providerSecretNames } from '#shared/adapters/enrichment/catalog';
import { requiredSettingsOf } from '#shared/adapters/functionWiring';
import { AppFunction } from './appFunction';
import { DataTable } from './dataTable';
import { type FunctionName, needsOf, timeoutOf } from './functionCatalog';
import { acknowledgeNagFindings } from './nagAcknowledgements';
import { Monitoring } from './monitoring';
import { Pipeline } from './pipeline';
import { WebhookDelivery } from './webhookDelivery';
import { ServiceApi } from './serviceApi';
import { type StripeSettings, grantStripeSecret, stripeEnvironment } from './stripeSettings';

export const RENEWALS_SCHEDULE = events.Schedule.rate(Duration.minutes(5));
/** A 2-minute captcha timeout must hold within a minute. */
export const CAPTCHA_SCHEDULE = events.Schedule.rate(Duration.minutes(1));
/** Reddit pushes nothing: its subreddits (and the bot's inbox) are read every minute. */
export const POLL_SCHEDULE = events.Schedule.rate(Duration.minutes(1));
/** The phishing list changes several times a day upstream; a download that finds no change writes the same generation. */
export const PHISHING_REFRESH_SCHEDULE = events.Schedule.rate(Duration.hours(6));

export interface OutreachIntelligenceStackProps extends StackProps {
  stripe?: StripeSettings;
  /** The public base URL behind a custom domain (https://api.example.com/api/v1); links default to API Gateway's own domain. */
  publicBaseUrl?: string;
  /** An e-mail address subscribed to the alarm topic. */
  alarmEmail?: string;
  /** The functions' log level (POWERTOOLS_LOG_LEVEL); INFO by default. */
  logLevel?: string;
  /** Public (it is in every bot invite link): the moderation function builds install_url from it. */
  discordApplicationId?: string;
  /** Where the phishing-list refresh downloads the list (PHISHING_LIST_URL); MetaMask's published file by default. */
  phishingListUrl?: string;
}

const constructId = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/**
 * The whole service in one environment-agnostic stack: the table, one Lambda per endpoint group
 * behind a REST API, the job pipeline (queue, dead-letter queue, worker), the renewals schedule and
 * the domain event bus. Each function gets exactly the access its catalogue entry asks for.
 */
export class OutreachIntelligenceStack extends Stack {
  readonly functions: Record<string, AppFunction> = {};
  readonly table: dynamodb.Table;
  readonly api: ServiceApi;
  readonly monitoring: Monitoring;
  readonly platformSecret: secretsmanager.Secret;
  readonly providerSecret: secretsmanager.Secret;
  readonly tokenKey: kms.Key;

  constructor(scope: Construct, id: string, props: OutreachIntelligenceStackProps = {}) {
    super(scope, id, props);
    const { table } = new DataTable(this, 'Data');
    this.table = table;
    const bus = new events.EventBus(this, 'DomainEvents', {
      description: "Domain events (job.completed, community.renewed, ...) for the operator's consumers",
    });

    // The operator's credentials of every platform module (registry.ts names them), filled in after the
    // first deploy (docs/operations.md); read at run time through the secrets port (Powertools Parameters), never put in env.
    const secretNames = platformSecretNames();
    this.platformSecret = new secretsmanager.Secret(this, 'PlatformCredentials', {
      description: `Moderation platform credentials: ${secretNames.join(', ')}`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify(
          Object.fromEntries(secretNames.filter((n) => n !== 'TELEGRAM_WEBHOOK_SECRET').map((n) => [n, ''])),
        ),
        // Telegram accepts A-Z, a-z, 0-9, _ and - in a webhook secret token.
        generateStringKey: 'TELEGRAM_WEBHOOK_SECRET',
        excludePunctuation: true,
        passwordLength: 48,
      },
    });
    // The enrichment providers' keys (shared/adapters/enrichment/catalog.ts names them), blank until the
    // operator fills them in; a provider whose key stays blank is skipped.
    const providerKeys = providerSecretNames();
    this.providerSecret = new secretsmanager.Secret(this, 'ProviderCredentials', {
      description: `Enrichment provider keys: ${providerKeys.join(', ')}`,
      secretObjectValue: Object.fromEntries(providerKeys.map((n) => [n, SecretValue.unsafePlainText('')])),
    });
    // X communities' OAuth tokens are sealed in the table with data keys from this key (envelope
    // encryption); retained with the table, which holds what it protects.
    this.tokenKey = new kms.Key(this, 'PlatformTokenKey', {
      description: "Wraps the data keys that seal X communities' OAuth tokens in the table",
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const groups = Object.keys(API_GROUPS);
    const names = [
      ...groups,
      'authorizer',
      'jobs-events',
      'worker',
      'dead-letters',
      'renewals',
      'captchas',
      'polls',
      'webhook-sender',
      'phishing-refresh',
    ] as FunctionName[];
    for (const name of names) {
      const needs = needsOf(name);
      this.functions[name] = new AppFunction(this, constructId(name), {
        folder: name,
        description: needs.description,
        timeout: needs.timeout,
        memorySize: needs.memorySize,
        sideFiles: needs.sideFiles,
        environment: {
          ...(needs.table === 'none' ? {} : { TABLE_NAME: table.tableName }),
          ...(needs.stripe ? stripeEnvironment(props.stripe ?? { prices: {} }) : {}),
          ...(props.publicBaseUrl ? { PUBLIC_BASE_URL: props.publicBaseUrl } : {}),
          POWERTOOLS_LOG_LEVEL: props.logLevel ?? 'INFO',
        },
      });
    }
    const fn = (name: FunctionName) => this.functions[name].fn;
    grantStripeSecret(this, props.stripe ?? { prices: {} }, names.filter((name) => needsOf(name).stripe).map(fn));

    const pipeline = new Pipeline(this, 'Pipeline', {
      worker: fn('worker'),
      workerTimeout: timeoutOf('worker'),
      deadLetterConsumer: fn('dead-letters'),
      deadLetterConsumerTimeout: timeoutOf('dead-letters'),
    });

    const webhooks = new WebhookDelivery(this, 'OutboundWebhookDelivery', {
      sender: fn('webhook-sender'),
      senderTimeout: timeoutOf('webhook-sender'),
    });

    for (const name of names) {
      const needs = needsOf(name);
      const target = fn(name);
      if (needs.webhookQueue) {
        webhooks.queue.grantSendMessages(target);
        target.addEnvironment('WEBHOOK_QUEUE_URL', webhooks.queue.queueUrl);
      }
      if (needs.table === 'read') table.grantReadData(target);
      if (needs.table === 'readWrite') table.grantReadWriteData(target);
      if (needs.queue) {
        pipeline.queue.grantSendMessages(target);
        target.addEnvironment('PIPELINE_QUEUE_URL', pipeline.queue.queueUrl);
      }
      if (needs.events) {
        bus.grantPutEventsTo(target);
        target.addEnvironment('EVENT_BUS_NAME', bus.eventBusName);
      }
      if (needs.platformSecret) {
        this.platformSecret.grantRead(target);
        target.addEnvironment('PLATFORM_SECRET_ARN', this.platformSecret.secretArn);
      }
      if (needs.providerSecret) {
        this.providerSecret.grantRead(target);
        target.addEnvironment('PROVIDER_SECRET_ARN', this.providerSecret.secretArn);
      }
      if (needs.tokenKey) {
        // New data keys and opening them, nothing more (no Encrypt, ReEncrypt or key administration).
        this.tokenKey.grant(target, 'kms:GenerateDataKey', 'kms:Decrypt');
        target.addEnvironment('TOKEN_KEY_ARN', this.tokenKey.keyArn);
      }
    }
    if (props.discordApplicationId)
      for (const name of names.filter((n) => needsOf(n).showsCommunities))
        fn(name).addEnvironment('DISCORD_APPLICATION_ID', props.discordApplicationId);

    new events.Rule(this, 'RenewalsSchedule', {
      description: 'Runs the renewals function every 5 minutes',
      schedule: RENEWALS_SCHEDULE,
      // A run that cannot be delivered is superseded by the next one five minutes later.
      targets: [new targets.LambdaFunction(fn('renewals'), { retryAttempts: 2, maxEventAge: Duration.minutes(4) })],
    });

    new events.Rule(this, 'CaptchaSchedule', {
      description: 'Removes new members whose captcha timed out and lifts Crisp mutes that are over, every minute',
      schedule: CAPTCHA_SCHEDULE,
      targets: [new targets.LambdaFunction(fn('captchas'), { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });

    new events.Rule(this, 'PollSchedule', {
      description: 'Queues the polls of the polled platforms (Reddit) in shards, every minute',
      schedule: POLL_SCHEDULE,
      // A missed minute is covered by the next one: cursors make the next poll read what was missed.
      targets: [new targets.LambdaFunction(fn('polls'), { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });

    if (props.phishingListUrl) fn('phishing-refresh').addEnvironment('PHISHING_LIST_URL', props.phishingListUrl);
    new events.Rule(this, 'PhishingRefreshSchedule', {
      description: 'Downloads the known-phishing-domain list into the table every 6 hours',
      schedule: PHISHING_REFRESH_SCHEDULE,
      // A missed run changes nothing: the list in the table stays in use until the next one.
      targets: [
        new targets.LambdaFunction(fn('phishing-refresh'), { retryAttempts: 2, maxEventAge: Duration.hours(1) }),
      ],
    });

    this.api = new ServiceApi(this, 'Http', {
      endpoints: Object.entries(API_GROUPS).flatMap(([group, specs]) => specs.map((spec) => ({ group, spec }))),
      groupFunctions: Object.fromEntries(groups.map((group) => [group, fn(group as FunctionName)])),
      streamingFunction: fn('jobs-events'),
      authorizerFunction: fn('authorizer'),
    });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api.api,
      functions: Object.fromEntries(names.map((name) => [name, fn(name)])),
      deadLetterQueues: { Pipeline: pipeline.deadLetterQueue, Webhook: webhooks.deadLetterQueue },
      alarmEmail: props.alarmEmail,
    });
    // Rendered events link to the API (a growth run's export URLs), and every function that dispatches
    // the outbox renders them (the webhook sender, and the renewals' sweep): the custom domain when one
    // is configured (every function already has it), API Gateway's own address otherwise.
    if (!props.publicBaseUrl)
      for (const name of names)
        if (requiredSettingsOf(name).includes('PUBLIC_BASE_URL'))
          fn(name).addEnvironment('PUBLIC_BASE_URL', this.api.baseUrl);

    new CfnOutput(this, 'ApiBaseUrl', { value: this.api.baseUrl, description: 'Base URL of the API (…/api/v1)' });
    new CfnOutput(this, 'TableName', {
      value: table.tableName,
      description: 'For the admin command: TABLE_NAME=… npm run admin',
    });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: pipeline.deadLetterQueue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'Subscribe to be told when an alarm fires',
    });
    new CfnOutput(this, 'PlatformSecretArn', {
      value: this.platformSecret.secretArn,
      description:
        'Put the Telegram and Discord credentials here (docs/guide: the Telegram, Discord, Reddit, X and Crisp pages)',
    });
    new CfnOutput(this, 'ProviderSecretArn', {
      value: this.providerSecret.secretArn,
      description: "Put the enrichment providers' keys here (docs/guide/03-jobs.md: Enrichment providers)",
    });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', { value: webhooks.deadLetterQueue.queueUrl });

    acknowledgeNagFindings(this);
  }
}
