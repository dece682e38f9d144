import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadConfig } from '#shared/config/config';
import { SERVICE_NAME } from '#shared/observability/logger';
import { emfLine, METRICS_NAMESPACE, metricTally, recordMetric } from '#shared/observability/metrics';

// The business metrics write CloudWatch's embedded metric format themselves; Powertools Metrics (no
// longer in any bundle) is the reference their lines are checked against.
const linesOf = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as Record<string, unknown>);

describe('business metrics in Lambda', () => {
  let out: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'metrics-test');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_DEV', '');
    reloadConfig();
    out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    out.mockRestore();
    vi.unstubAllEnvs();
    reloadConfig();
  });

  it('write the line Powertools Metrics writes for a single metric, timestamp aside', () => {
    vi.useFakeTimers({ now: 1_780_000_000_000 });
    try {
      const reference = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }).singleMetric();
      reference.addDimension('platform', 'telegram');
      reference.addDimension('action', 'delete');
      reference.addMetric('ModerationActions', MetricUnit.Count, 3);
      recordMetric('ModerationActions', 3, { platform: 'telegram', action: 'delete' });
    } finally {
      vi.useRealTimers();
    }
    const [theirs, ours] = linesOf(out);
    expect(ours).toEqual(theirs);
    expect(ours).toEqual(
      emfLine('ModerationActions', 3, { platform: 'telegram', action: 'delete' }, 1_780_000_000_000),
    );
  });

  it('write one line per call, with the service as the only dimension of a metric that has none', () => {
    recordMetric('JobsCompleted', 2, {});
    recordMetric('CreditsCharged', 0, { tool: 'quote' });
    const lines = linesOf(out);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'OutreachIntelligence',
            Dimensions: [['service']],
            Metrics: [{ Name: 'JobsCompleted', Unit: 'Count' }],
          },
        ],
      },
      service: SERVICE_NAME,
      JobsCompleted: 2,
    });
  });

  it('write nothing when metrics are disabled, as Powertools honours POWERTOOLS_METRICS_DISABLED', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    reloadConfig();
    recordMetric('JobsFailed', 1, {});
    expect(out).not.toHaveBeenCalled();
  });

  it('are tallied in memory, not printed, outside Lambda', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
    reloadConfig();
    const before = metricTally().get('PaymentEventsRejected reason=signature') ?? 0;
    recordMetric('PaymentEventsRejected', 1, { reason: 'signature' });
    expect(out).not.toHaveBeenCalled();
    expect(metricTally().get('PaymentEventsRejected reason=signature')).toBe(before + 1);
  });
});
