import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { addGatewayErrors } from './gatewayResponses';
import { AUTHORIZER_CACHE_SECONDS } from '#shared/config/authorizerCache';

export const STAGE_NAME = 'prod';
/** API Gateway caches the authorizer's answer per Authorization header; handlers re-check the key. */
export const AUTHORIZER_CACHE_TTL = Duration.seconds(AUTHORIZER_CACHE_SECONDS);
/** The longest a streamed (SSE) response may stay open behind API Gateway. */
export const STREAMING_TIMEOUT = Duration.minutes(15);

const F = apigateway.AccessLogField;
const ACCESS_LOG_FORMAT = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: F.contextRequestId(),
    requestTime: F.contextRequestTime(),
    ip: F.contextIdentitySourceIp(),
    userAgent: F.contextIdentityUserAgent(),
    method: F.contextHttpMethod(),
    resource: F.contextResourcePath(),
    path: F.contextPath(),
    status: F.contextStatus(),
    responseLength: F.contextResponseLength(),
    responseLatency: F.contextResponseLatency(),
    integrationLatency: F.contextIntegrationLatency(),
    userId: F.contextAuthorizerPrincipalId(),
    errorType: F.contextErrorResponseType(),
    error: F.contextErrorMessage(),
  }),
);

export interface ServiceApiProps {
  /** Every endpoint, with the name of the function group that serves it (shared/schemas/groups.ts). */
  endpoints: { group: string; spec: EndpointSpec }[];
  /** One function per group. */
  groupFunctions: Record<string, lambda.IFunction>;
  /** Serves every endpoint marked `streaming` (response streaming, SSE). */
  streamingFunction: lambda.IFunction;
  /** The TOKEN authorizer in front of every `api_key` endpoint. */
  authorizerFunction: lambda.IFunction;
}

/**
 * The REST API: one resource and method per endpoint spec, a Lambda proxy integration to the
 * group's function (streaming endpoints in STREAM transfer mode), the API-key authorizer, access
 * logs, stage throttling, and API Gateway's own errors in the contract's shape. Request validation
 * is the Lambdas' (zod, from the same specs), so no API Gateway models are declared.
 */
export class ServiceApi extends Construct {
  readonly api: apigateway.RestApi;
  readonly accessLogs: logs.LogGroup;
  readonly authorizer: apigateway.TokenAuthorizer;
  /** Methods open without a key (auth 'none' in their spec). */
  readonly publicMethods: apigateway.Method[] = [];

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: 'outreach-intelligence',
      description: 'Outreach Intelligence API (/api/v1)',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      // Execution and access logs need API Gateway's account-level CloudWatch role in the region.
      cloudWatchRole: true,
      deployOptions: {
        stageName: STAGE_NAME,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: 50,
        throttlingBurstLimit: 100,
      },
    });
    addGatewayErrors(this.api);

    this.authorizer = new apigateway.TokenAuthorizer(this, 'KeyAuthorizer', {
      handler: props.authorizerFunction,
      identitySource: apigateway.IdentitySource.header('Authorization'),
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });

    // One integration per function; its invoke permission covers the whole API (one statement per
    // function instead of two per method, which would outgrow Lambda's resource policy limit).
    const integrations = new Map<lambda.IFunction, apigateway.LambdaIntegration>();
    const integrationFor = (fn: lambda.IFunction, streaming: boolean) => {
      let integration = integrations.get(fn);
      if (!integration) {
        integration = new apigateway.LambdaIntegration(fn, {
          scopePermissionToMethod: false,
          ...(streaming
            ? { responseTransferMode: apigateway.ResponseTransferMode.STREAM, timeout: STREAMING_TIMEOUT }
            : {}),
        });
        integrations.set(fn, integration);
      }
      return integration;
    };

    for (const { group, spec } of props.endpoints) {
      const fn = spec.streaming ? props.streamingFunction : props.groupFunctions[group];
      if (!fn) throw new Error(`No function for endpoint group "${group}" (${spec.method} ${spec.path})`);
      const method = this.api.root
        .resourceForPath(spec.path)
        .addMethod(spec.method, integrationFor(fn, spec.streaming === true), {
          operationName: spec.operationId,
          ...(spec.auth === 'api_key'
            ? { authorizer: this.authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM }
            : { authorizationType: apigateway.AuthorizationType.NONE }),
        });
      if (spec.auth === 'none') this.publicMethods.push(method);
    }
  }

  /** The base URL clients use: https://<id>.execute-api.<region>.amazonaws.com/prod/api/v1 */
  get baseUrl(): string {
    return this.api.urlForPath('/api/v1');
  }
}
