import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SERVICE_NAME } from './logger';
import { config } from '#shared/config/config';

export const METRICS_NAMESPACE = 'OutreachIntelligence';

/** The business metrics (CloudWatch EMF), with their unit and the dimensions each carries besides `service`. */
export const BUSINESS_METRICS = {
  CreditsCharged: { unit: MetricUnit.Count, dimensions: ['tool'] },
  CreditsRefunded: { unit: MetricUnit.Count, dimensions: ['tool'] },
  JobsCompleted: { unit: MetricUnit.Count, dimensions: [] },
  JobsFailed: { unit: MetricUnit.Count, dimensions: [] },
  DeadLetteredMessages: { unit: MetricUnit.Count, dimensions: [] },
  ModerationActions: { unit: MetricUnit.Count, dimensions: ['platform', 'action'] },
  PlatformCallFailures: { unit: MetricUnit.Count, dimensions: ['platform'] },
  /** Requests a poll sent to a platform, and the new items it read (Reddit, X). */
  PlatformPollRequests: { unit: MetricUnit.Count, dimensions: ['platform'] },
  PlatformPolledItems: { unit: MetricUnit.Count, dimensions: ['platform'] },
  PaymentEventsApplied: { unit: MetricUnit.Count, dimensions: [] },
  PaymentEventsRejected: { unit: MetricUnit.Count, dimensions: ['reason'] },
} as const;

export type BusinessMetric = keyof typeof BUSINESS_METRICS;
type DimensionsOf<M extends BusinessMetric> = Record<(typeof BUSINESS_METRICS)[M]['dimensions'][number], string>;

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
const inLambda = () => config().inLambda;

/** Outside Lambda (the local server, tests, the bench) metrics are tallied in memory instead of printed. */
const tally = new Map<string, number>();

/**
 * Records one business metric. In Lambda each call writes one EMF line at once (a single-metric
 * emission), so no function type needs a flush at the end of its invocation.
 */
export function recordMetric<M extends BusinessMetric>(name: M, value: number, dimensions: DimensionsOf<M>): void {
  if (!(value > 0)) return;
  if (!inLambda()) {
    const key = [name, ...Object.entries(dimensions).map(([k, v]) => `${k}=${v}`)].join(' ');
    tally.set(key, (tally.get(key) ?? 0) + value);
    return;
  }
  const single = metrics.singleMetric();
  for (const [dimension, v] of Object.entries(dimensions)) single.addDimension(dimension, String(v));
  single.addMetric(name, BUSINESS_METRICS[name].unit, value);
}

/** The local tally, as `MetricName dim=value` -> sum (for the bench and tests). */
export function metricTally(): ReadonlyMap<string, number> {
  return tally;
}
