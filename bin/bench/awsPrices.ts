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
  /** SQS standard queue, per request (64 KiB chunk). */
  sqsRequest: 0.4 / 1e6,
  /** EventBridge custom events, per event published. */
  eventBridgeEvent: 1 / 1e6,
} as const;

export interface CountedUsage {
  readUnits: number;
  writeUnits: number;
  lambdaInvocations: number;
  /** Sum of the invocations' durations, ms (each billed rounded up to 1 ms). */
  lambdaMs: number;
  memoryMb: number;
  apiRequests: number;
  sqsRequests: number;
  events: number;
}

/** US dollars for what one operation used. */
export function dollarsOf(u: CountedUsage): number {
  const p = AWS_PRICES;
  return (
    u.readUnits * p.dynamoReadUnit +
    u.writeUnits * p.dynamoWriteUnit +
    u.lambdaInvocations * p.lambdaRequest +
    (Math.ceil(u.lambdaMs) / 1000) * (u.memoryMb / 1024) * p.lambdaGbSecond +
    u.apiRequests * p.apiGatewayRequest +
    u.sqsRequests * p.sqsRequest +
    u.events * p.eventBridgeEvent
  );
}
