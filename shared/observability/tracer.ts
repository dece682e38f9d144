import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './logger';

/**
 * X-Ray through Powertools: active only inside Lambda with tracing on (the stack enables it), a
 * no-op locally and in tests. Every AWS SDK client is passed through `traced` when it is created.
 */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

export function traced<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}
