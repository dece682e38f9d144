/**
 * AWS on-demand list prices used by the bench's cost table: us-east-1, Lambda on arm64, as published
 * on AWS's pricing pages on the date below (free tiers ignored). Change them here, with the date.
 */
export const AWS_PRICES = {
  asOf: '2026-11-24',
  region: 'us-east-1',
  /** Lambda arm64: per GB-second of duration (billed per 1 ms) and per request. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway REST API, first 333 million requests a month. */
  apiGatewayRequest: 3.5 / 1e6,
  /** DynamoDB on-demand, standard table class: per read and per write request unit. */
  dynamoReadUnit: 0.125 / 1e6,
  dynamoWriteUnit: 0.625 / 1e6,
  /** SQS standard queue, per request (each 64 KiB chunk of a payload is a request). */
  sqsRequest: 0.4 / 1e6,
  /** EventBridge custom events, per event published (each 64 KiB chunk is an event). */
  eventBridgeEvent: 1 / 1e6,
} as const;

export interface CountedUsage {
  readUnits: number;
  writeUnits: number;
  /** Invocations of every function the operation ran (API groups, authorizer, queue consumers, schedules). */
  lambdaInvocations: number;
  /** Their durations in seconds, each at its function's configured memory in GB. */
  lambdaGbSeconds: number;
  apiRequests: number;
  /** SQS requests: sends, receives and deletes, each 64 KiB chunk of a payload one request. */
  sqsRequests: number;
  /** EventBridge events published, each 64 KiB chunk one event. */
  events: number;
}

/** US dollars for what one operation used. */
export function dollarsOf(u: CountedUsage): number {
  const p = AWS_PRICES;
  return (
    u.readUnits * p.dynamoReadUnit +
    u.writeUnits * p.dynamoWriteUnit +
    u.lambdaInvocations * p.lambdaRequest +
    u.lambdaGbSeconds * p.lambdaGbSecond +
    u.apiRequests * p.apiGatewayRequest +
    u.sqsRequests * p.sqsRequest +
    u.events * p.eventBridgeEvent
  );
}
