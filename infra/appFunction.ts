import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { sideFileHooks, STACK_BUNDLING } from './bundling';
import { PROJECT_ROOT } from './projectRoot';

export interface AppFunctionProps {
  /** Folder under functions/ whose handler.ts exports the handler. */
  folder: string;
  description: string;
  environment: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Data files (paths from the project root) copied into the asset beside index.js (functionCatalog.ts, `sideFiles`). */
  sideFiles?: readonly string[];
}

/**
 * Every Lambda of the service, with the defaults fixed in one place (as in the Powertools example
 * app): Node.js 22 on arm64, bundled locally by esbuild (no Docker) into one minified CommonJS file
 * with source maps, the AWS SDK bundled and tree-shaken rather than taken from the runtime so that
 * what is tested is what runs, the data files it reads at run time copied beside the bundle, an
 * explicit log group with a retention, and X-Ray tracing.
 *
 * The role is our own rather than the default one with AWSLambdaBasicExecutionRole: it may only
 * write to this function's log group. Whatever else a function may touch is granted by the stack.
 */
export class AppFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      // Logs go with the stack; the data that must survive it is in the table (retained).
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${id}`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: path.join(PROJECT_ROOT, 'functions', props.folder, 'handler.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(29),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      // No --enable-source-maps: Node would decode the bundle's map at every cold start. The map ships
      // beside index.js and the logger reads it when it writes an error's stack (shared/observability/sourceMappedStack.ts).
      environment: props.environment,
      bundling: props.sideFiles?.length
        ? { ...STACK_BUNDLING, commandHooks: sideFileHooks(props.sideFiles) }
        : STACK_BUNDLING,
    });
  }
}
