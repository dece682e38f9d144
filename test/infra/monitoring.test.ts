import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '#infra/monitoring';
import { synthesize } from './synth';

/** alarms, the alarm topic and the dashboard an operator gets with the stack. */
const s = synthesize({ bundle: false, props: { alarmEmail: 'oncall@example.com' } });
const alarms = () => Object.values(s.resources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
const topicId = () => Object.keys(s.resources('AWS::SNS::Topic'))[0];

describe('monitoring', () => {
  it('has one encrypted, TLS-only alarm topic with the configured e-mail subscribed', () => {
    expect(Object.keys(s.resources('AWS::SNS::Topic'))).toHaveLength(1);
    s.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
      TopicArn: { Ref: topicId() },
    });
  });

  it('alarms on the dead-letter queue, the API 5xx rate and p99 latency, and the job failure rate', () => {
    const dlqs = alarms().filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(dlqs).toHaveLength(2);
    for (const dlq of dlqs)
      expect(dlq).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Namespace: 'AWS/SQS' });
    const latency = alarms().find((a) => a.MetricName === 'Latency');
    expect(latency).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      ExtendedStatistic: 'p99',
      Threshold: ALARM_THRESHOLDS.apiP99LatencyMs,
    });
    const expressions = alarms().flatMap((a) =>
      (a.Metrics ?? []).map((m: { Expression?: string }) => m.Expression).filter(Boolean),
    );
    expect(expressions).toEqual(
      expect.arrayContaining([
        expect.stringContaining('errors / requests'),
        expect.stringContaining('failed / (completed + failed)'),
      ]),
    );
    const jobMetrics = alarms().flatMap((a) => (a.Metrics ?? []).map((m: any) => m.MetricStat?.Metric).filter(Boolean));
    expect(jobMetrics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Namespace: 'OutreachIntelligence',
          MetricName: 'JobsFailed',
          Dimensions: [{ Name: 'service', Value: 'outreach-intelligence' }],
        }),
      ]),
    );
  });

  it('alarms on errors and throttles of every function, and every alarm notifies the topic', () => {
    const functionIds = Object.values(s.stack.functions).map((f) => s.logicalId(f.fn));
    for (const metric of ['Errors', 'Throttles']) {
      const watched = alarms()
        .filter((a) => a.MetricName === metric && a.Namespace === 'AWS/Lambda')
        .map((a) => a.Dimensions[0].Value.Ref);
      expect(new Set(watched)).toEqual(new Set(functionIds));
    }
    for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([{ Ref: topicId() }]);
  });

  it('has a dashboard with the API, job and business series', () => {
    const dashboards = Object.values(s.resources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const series of [
      'CreditsCharged',
      'CreditsRefunded',
      'ModerationActions',
      'PaymentEventsApplied',
      'PaymentEventsRejected',
      'PlatformCallFailures',
      'DeadLetteredMessages',
      'JobsFailed',
      'Latency',
      '5XXError',
    ]) {
      expect(body, series).toContain(series);
    }
  });

  it("sets the functions' log level, and no function carries a secret value in its environment", () => {
    for (const fn of Object.values(s.resources('AWS::Lambda::Function'))) {
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(variables.POWERTOOLS_LOG_LEVEL).toBe('INFO');
      // An ARN (TOKEN_KEY_ARN, PLATFORM_SECRET_ARN) names where a key or secret is kept, never its value.
      expect(
        Object.keys(variables).filter((k) => /SECRET_KEY|WEBHOOK_SECRET|TOKEN|PASSWORD/.test(k) && !k.endsWith('_ARN')),
      ).toEqual([]);
    }
  });
});
