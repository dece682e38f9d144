import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '#shared/observability/logger';
import { METRICS_NAMESPACE } from '#shared/observability/metrics';

export interface MonitoringProps {
  api: apigateway.RestApi;
  functions: Record<string, lambda.IFunction>;
  /** Each dead-letter queue by name (its alarm is `<name>DeadLetterQueueNotEmpty`). */
  deadLetterQueues: Record<string, sqs.IQueue>;
  /** An address subscribed to the alarm topic (context `alarmEmail`); none: subscribe yourself. */
  alarmEmail?: string;
}

/** The thresholds the alarms hold the service to (docs/operations.md: Runbook). */
export const ALARM_THRESHOLDS = {
  api5xxRatePercent: 1,
  apiP99LatencyMs: 5_000,
  jobFailureRatePercent: 20,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

/** A business metric of shared/observability/metrics.ts, as CloudWatch stores it (with the `service` dimension). */
const businessMetric = (metricName: string, dimensions: Record<string, string> = {}) =>
  new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAME, ...dimensions },
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });

/** Every metric of one name whatever its other dimensions (credits by tool, actions by platform). */
const businessSearch = (metricName: string, dimensions: string[], label: string) =>
  new cloudwatch.MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},${['service', ...dimensions].join(',')}} MetricName="${metricName}"', 'Sum', 300)`,
    label,
    period: FIVE_MINUTES,
  });

/**
 * What an operator watches: alarms on the dead-letter queue, the API's 5xx rate and p99 latency,
 * every function's errors and throttles and the job failure rate, all notifying one SNS topic; and
 * a dashboard with those series beside the business metrics.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Outreach Intelligence API alarms',
      enforceSSL: true,
      masterKey: kms.Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    const alarm = (
      name: string,
      description: string,
      metric: cloudwatch.IMetric,
      threshold: number,
      evaluationPeriods = 1,
    ) => {
      const created = new cloudwatch.Alarm(this, name, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(new actions.SnsAction(this.topic));
      this.alarms.push(created);
      return created;
    };

    const deadLetters = Object.entries(props.deadLetterQueues).map(([name, queue]) => {
      const depth = queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' });
      alarm(
        `${name}DeadLetterQueueNotEmpty`,
        `${name} messages failed every delivery and wait in the dead-letter queue (docs/operations.md: Runbook, DeadLetterQueueNotEmpty).`,
        depth,
        0,
      );
      return depth;
    });

    const requests = props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrorRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      label: 'API 5xx %',
      period: FIVE_MINUTES,
    });
    alarm(
      'Api5xxRate',
      `More than ${ALARM_THRESHOLDS.api5xxRatePercent}% of API requests answered 5xx over 5 minutes.`,
      serverErrorRate,
      ALARM_THRESHOLDS.api5xxRatePercent,
    );

    const latencyP99 = props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' });
    alarm(
      'ApiLatencyP99',
      `API p99 latency above ${ALARM_THRESHOLDS.apiP99LatencyMs} ms for 15 minutes.`,
      latencyP99,
      ALARM_THRESHOLDS.apiP99LatencyMs,
      3,
    );

    const jobsCompleted = businessMetric('JobsCompleted');
    const jobsFailed = businessMetric('JobsFailed');
    const jobFailureRate = new cloudwatch.MathExpression({
      expression: 'IF((completed + failed) > 0, 100 * failed / (completed + failed), 0)',
      usingMetrics: { completed: jobsCompleted, failed: jobsFailed },
      label: 'Job failure %',
      period: FIVE_MINUTES,
    });
    alarm(
      'JobFailureRate',
      `More than ${ALARM_THRESHOLDS.jobFailureRatePercent}% of the jobs that ended in 5 minutes failed.`,
      jobFailureRate,
      ALARM_THRESHOLDS.jobFailureRatePercent,
    );

    for (const [name, fn] of Object.entries(props.functions)) {
      const label = name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
      alarm(
        `${label}Errors`,
        `The ${name} function threw (uncaught errors or timeouts).`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        0,
      );
      alarm(
        `${label}Throttles`,
        `The ${name} function was throttled (concurrency limit reached).`,
        fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        0,
      );
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: 'OutreachIntelligenceApi' });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) =>
      new cloudwatch.GraphWidget({ title, left, width });
    this.dashboard.addWidgets(
      graph('API requests and 5xx', [requests, serverErrors]),
      graph('API 5xx %', [serverErrorRate]),
      graph('API latency p99 (ms)', [latencyP99]),
    );
    this.dashboard.addWidgets(
      graph('Jobs completed / failed', [jobsCompleted, jobsFailed]),
      graph('Job failure %', [jobFailureRate]),
      graph('Dead-letter queue depth', deadLetters),
    );
    this.dashboard.addWidgets(
      graph('Credits charged by tool', [businessSearch('CreditsCharged', ['tool'], 'charged')]),
      graph('Credits refunded by tool', [businessSearch('CreditsRefunded', ['tool'], 'refunded')]),
      graph('Moderation actions by platform and action', [
        businessSearch('ModerationActions', ['platform', 'action'], 'actions'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Payment events applied / rejected', [
        businessMetric('PaymentEventsApplied'),
        businessSearch('PaymentEventsRejected', ['reason'], 'rejected'),
      ]),
      graph('Platform call failures', [businessSearch('PlatformCallFailures', ['platform'], 'failures')]),
      graph('Dead-lettered messages', [businessMetric('DeadLetteredMessages')]),
    );
    this.dashboard.addWidgets(
      graph(
        'Function errors',
        Object.values(props.functions).map((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })),
        12,
      ),
      graph(
        'Function throttles',
        Object.values(props.functions).map((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })),
        12,
      ),
    );
  }
}
