import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ServiceApi, STREAMING_TIMEOUT } from '#infra/serviceApi';
import { defineEndpoint, type EndpointSpec } from '#shared/schemas/endpoint';

// The construct on its own, fed a streaming endpoint like the jobs area's SSE route (the stack
// test covers whatever API_GROUPS holds today), with inline functions so nothing is bundled.
const endpoints: { group: string; spec: EndpointSpec }[] = [
  {
    group: 'jobs',
    spec: defineEndpoint({
      operationId: 'getJob',
      method: 'GET',
      path: '/api/v1/bd/jobs/{job_id}',
      summary: 'Job',
      tag: 'Jobs',
      auth: 'api_key',
      params: z.strictObject({ job_id: z.string() }),
    }),
  },
  {
    group: 'jobs',
    spec: defineEndpoint({
      operationId: 'streamJobEvents',
      method: 'GET',
      path: '/api/v1/bd/jobs/{job_id}/events',
      summary: 'SSE',
      tag: 'Jobs',
      auth: 'api_key',
      streaming: true,
    }),
  },
];

const stack = new Stack(new App(), 'ApiOnly');
const inline = (id: string) =>
  new lambda.Function(stack, id, {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ({})'),
  });
const jobs = inline('Jobs');
const events = inline('JobsEvents');
new ServiceApi(stack, 'Http', {
  endpoints,
  groupFunctions: { jobs },
  streamingFunction: events,
  authorizerFunction: inline('Authorizer'),
});
const template = Template.fromStack(stack);
const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).map((m) => m.Properties);
const byOperation = (id: string) => methods.find((m) => m.OperationName === id)!;
const logicalId = (fn: lambda.Function) => stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction);

describe('a streaming endpoint', () => {
  it('is integrated in STREAM transfer mode through the response-streaming invocation path of the streaming function', () => {
    const integration = byOperation('streamJobEvents').Integration;
    expect(integration.Type).toBe('AWS_PROXY');
    expect(integration.ResponseTransferMode).toBe('STREAM');
    const uri = JSON.stringify(integration.Uri);
    expect(uri).toContain('/response-streaming-invocations');
    expect(uri).toContain(`"${logicalId(events)}"`);
    expect(integration.TimeoutInMillis).toBe(STREAMING_TIMEOUT.toMilliseconds());
  });

  it("stays behind the authorizer, while the group's other endpoints keep buffered invocations of the group function", () => {
    expect(byOperation('streamJobEvents').AuthorizationType).toBe('CUSTOM');
    const buffered = byOperation('getJob').Integration;
    expect(buffered.ResponseTransferMode).toBeUndefined();
    expect(JSON.stringify(buffered.Uri)).toContain('/invocations');
    expect(JSON.stringify(buffered.Uri)).not.toContain('response-streaming');
    expect(JSON.stringify(buffered.Uri)).toContain(`"${logicalId(jobs)}"`);
  });
});
