import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { NAG_ACKNOWLEDGEMENTS } from '#infra/nagAcknowledgements';
import { synthesize } from './synth';

// cdk-nag reads the construct tree, not the bundles: no esbuild here.
const { app, stack } = synthesize({ bundle: false });

const findings = () =>
  new AwsSolutionsChecks().validateScope(app).violations.map((v) => ({
    rule: v.ruleName,
    severity: v.severity,
    resources: v.violatingResources.map((r) => r.constructPath),
  }));

describe('cdk-nag AwsSolutions', () => {
  it('reports nothing that is not acknowledged, errors and warnings alike', () => {
    expect(findings()).toEqual([]);
  });

  it('gives a reason for every acknowledgement', () => {
    for (const ack of NAG_ACKNOWLEDGEMENTS) {
      expect(ack.id(stack)).toMatch(/^AwsSolutions-[A-Za-z0-9]+(\[.+\])?$/);
      expect(ack.reason.length, ack.id(stack)).toBeGreaterThan(40);
      expect(ack.on(stack).length, ack.id(stack)).toBeGreaterThan(0);
    }
  });

  it('is live on this construct tree: a non-compliant resource added to the stack is reported', () => {
    new sqs.Queue(stack, 'PlainQueue', { enforceSSL: false });
    const reported = findings().filter((f) => f.resources.some((p) => p?.includes('PlainQueue')));
    expect(reported.map((f) => f.rule).sort()).toEqual(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']);
    expect(reported.every((f) => f.severity === 'error')).toBe(true);
  });
});
