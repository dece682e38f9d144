import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { OutreachIntelligenceStack, type OutreachIntelligenceStackProps } from '#infra/stack';

export interface Synthesized {
  app: App;
  stack: OutreachIntelligenceStack;
  template: Template;
  /** The template's resources of one type, by logical id. */
  resources: (type: string) => Record<string, { Properties: Record<string, any>; [k: string]: any }>;
  /** Logical id of a construct's CloudFormation resource. */
  logicalId: (construct: { node: { defaultChild?: unknown } }) => string;
}

/**
 * Synthesizes the stack once for a test file. `bundle: false` skips esbuild (fast) for checks that
 * only read the construct tree or the template; the stack test bundles for real and keeps the
 * asset metadata so it can look at the bundles.
 */
export function synthesize(options: { bundle: boolean; props?: OutreachIntelligenceStackProps }): Synthesized {
  const app = new App({
    context: options.bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new OutreachIntelligenceStack(app, 'OutreachIntelligenceApi', options.props);
  const template = Template.fromStack(stack);
  return {
    app,
    stack,
    template,
    resources: (type) => template.findResources(type) as ReturnType<Synthesized['resources']>,
    logicalId: (construct) => (stack as Stack).getLogicalId(construct.node.defaultChild as never),
  };
}
