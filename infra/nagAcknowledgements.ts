import { Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { IConstruct } from 'constructs';
import type { AppFunction } from './appFunction';
import type { ServiceApi } from './serviceApi';

/** The parts of the stack findings are acknowledged on (a shape, so this file does not import the stack that calls it). */
export interface NaggedStack {
  functions: Record<string, AppFunction>;
  platformSecret: IConstruct;
  providerSecret: IConstruct;
  table: dynamodb.Table;
  api: ServiceApi;
}

interface Acknowledgement {
  /** The cdk-nag finding, e.g. AwsSolutions-APIG2 or AwsSolutions-IAM5[Resource::*]. */
  id: (stack: NaggedStack) => string;
  reason: string;
  /** The constructs it is acknowledged on (it then covers everything beneath them). */
  on: (stack: NaggedStack) => IConstruct[];
}

const roles = (stack: NaggedStack) => Object.values(stack.functions).map((f) => f.role);
const tableArnToken = (table: dynamodb.Table) =>
  `<${table.stack.getLogicalId(table.node.defaultChild as dynamodb.CfnTable)}.Arn>`;

/**
 * Every cdk-nag AwsSolutions finding this stack accepts, with the reason. Anything not listed here
 * fails test/infra/nag.test.ts.
 */
export const NAG_ACKNOWLEDGEMENTS: Acknowledgement[] = [
  {
    id: () => 'AwsSolutions-SMG4',
    reason:
      'The platform secret holds bot tokens issued by Telegram (BotFather) and Discord (Developer Portal); they are rotated there, not by a Secrets Manager rotation Lambda, and the service re-reads the secret every 5 minutes.',
    on: (stack) => [stack.platformSecret],
  },
  {
    id: () => 'AwsSolutions-SMG4',
    reason:
      "The provider secret holds API keys issued by the data providers (Hunter, ZeroBounce); they are rotated in the provider's dashboard, not by a Secrets Manager rotation Lambda, and the service re-reads the secret every 5 minutes.",
    on: (stack) => [stack.providerSecret],
  },
  {
    id: () => 'AwsSolutions-L1',
    reason:
      'Node.js 22 is the runtime the service is built and tested for (design.md: "Lambda runs 22"); moving to a newer runtime is a deliberate upgrade, not a drift.',
    on: (stack) => Object.values(stack.functions).map((f) => f.fn),
  },
  {
    id: () => 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions, so AWS requires "*". It is the only wildcard resource in these roles.',
    on: roles,
  },
  {
    id: (stack) => `AwsSolutions-IAM5[Resource::${tableArnToken(stack.table)}/index/*]`,
    reason:
      "Queries on the table's own global secondary indexes (gsi1..gsi3); the wildcard is limited to this one table's indexes.",
    on: roles,
  },
  {
    id: () => 'AwsSolutions-APIG2',
    reason:
      'Requests are validated by the Lambdas with the zod schemas that also generate the OpenAPI document, so the errors keep the contract shape (400 validation_error with details); API Gateway models would duplicate them.',
    on: (stack) => [stack.api.api],
  },
  {
    id: () => 'AwsSolutions-COG4',
    reason:
      'The contract authenticates with API keys (Authorization: Bearer), checked by the TOKEN Lambda authorizer; there are no Cognito users.',
    on: (stack) => [stack.api.api],
  },
  {
    id: () => 'AwsSolutions-APIG4',
    reason:
      'Public by contract: health, the OpenAPI document, the Stripe webhook (authenticated by its Stripe-Signature instead), the Telegram webhooks (X-Telegram-Bot-Api-Secret-Token), Discord interactions (Ed25519 signature) and the local checkout pages (addressed by an unguessable session id).',
    on: (stack) => stack.api.publicMethods,
  },
  {
    id: () => 'AwsSolutions-APIG3',
    reason:
      'No WAF web ACL by default (a fixed monthly cost for a personal deployment); the stage throttles (50 rps, burst 100) and every paid call needs a key. Attach a web ACL to the stage in production.',
    on: (stack) => [stack.api.api],
  },
  {
    id: () =>
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    reason:
      "API Gateway's account-level logging role, which access and execution logs need; AWS documents this managed policy for exactly that role.",
    on: (stack) => [stack.api.api],
  },
];

export function acknowledgeNagFindings(stack: NaggedStack): void {
  for (const ack of NAG_ACKNOWLEDGEMENTS) {
    const id = ack.id(stack);
    for (const construct of ack.on(stack)) Validations.of(construct).acknowledge({ id, reason: ack.reason });
  }
}
