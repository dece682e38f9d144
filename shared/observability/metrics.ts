import { config } from '#shared/config/config';
import { SERVICE_NAME } from './logger';

export const METRICS_NAMESPACE = 'OutreachIntelligence';

/** Every business metric is a count (the EMF unit name). */
const COUNT = 'Count';

/** The business metrics (CloudWatch EMF), with their unit and the dimensions each carries besides `service`. */
export const BUSINESS_METRICS = {
  CreditsCharged: { unit: COUNT, dimensions: ['tool'] },
  CreditsRefunded: { unit: COUNT, dimensions: ['tool'] },
  JobsCompleted: { unit: COUNT, dimensions: [] },
  JobsFailed: { unit: COUNT, dimensions: [] },
  DeadLetteredMessages: { unit: COUNT, dimensions: [] },
  ModerationActions: { unit: COUNT, dimensions: ['platform', 'action'] },
  PlatformCallFailures: { unit: COUNT, dimensions: ['platform'] },
  /** Requests a poll sent to a platform, and the new items it read (Reddit, X). */
  PlatformPollRequests: { unit: COUNT, dimensions: ['platform'] },
  PlatformPolledItems: { unit: COUNT, dimensions: ['platform'] },
  PaymentEventsApplied: { unit: COUNT, dimensions: [] },
  PaymentEventsRejected: { unit: COUNT, dimensions: ['reason'] },
} as const;

export type BusinessMetric = keyof typeof BUSINESS_METRICS;
type DimensionsOf<M extends BusinessMetric> = Record<(typeof BUSINESS_METRICS)[M]['dimensions'][number], string>;

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
  if (config().metricsDisabled) return;
  process.stdout.write(`${JSON.stringify(emfLine(name, value, dimensions, Date.now()))}\n`);
}

/**
 * One metric in CloudWatch's embedded metric format, as Powertools Metrics' single-metric emission
 * writes it (dimension set `service` plus the metric's own, each dimension a top-level key beside
 * the value). Written here rather than through Powertools Metrics, whose 15 KiB every function
 * bundled for this one JSON line. It goes to stdout directly, not through console.log, whose Lambda
 * prefix (time, request id, level) would keep CloudWatch from reading the line as EMF.
 */
export function emfLine<M extends BusinessMetric>(
  name: M,
  value: number,
  dimensions: DimensionsOf<M>,
  timestamp: number,
): Record<string, unknown> {
  const values = Object.fromEntries(Object.entries(dimensions).map(([k, v]) => [k, String(v)]));
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [['service', ...Object.keys(values)]],
          Metrics: [{ Name: name, Unit: BUSINESS_METRICS[name].unit }],
        },
      ],
    },
    service: SERVICE_NAME,
    ...values,
    [name]: value,
  };
}

/** The local tally, as `MetricName dim=value` -> sum (for the bench and tests). */
export function metricTally(): ReadonlyMap<string, number> {
  return tally;
}
