import type { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/**
 * Response streaming (SSE). In Lambda the runtime provides the global `awslambda`; the local
 * server passes a stream honouring the same "metadata first, then body" contract, so one handler
 * serves both.
 */
export type StreamingHandler = (
  event: APIGatewayProxyEvent,
  responseStream: Writable,
  context: Context,
) => Promise<void>;

export interface StreamMetadata {
  statusCode: number;
  headers: Record<string, string>;
}

/** The local server's response stream. */
export interface LocalResponseStream extends Writable {
  setMetadata(metadata: StreamMetadata): void;
}

interface LambdaStreaming {
  streamifyResponse(handler: StreamingHandler): StreamingHandler;
  HttpResponseStream: { from(stream: Writable, metadata: StreamMetadata): Writable };
}

/**
 * The Lambda runtime's streaming API, when present. Libraries create a bare `awslambda` global too
 * (Powertools' invoke store does, in any process), so its presence alone proves nothing.
 */
const lambdaRuntime = (): LambdaStreaming | undefined => {
  // Read as a property that may be missing: @types/aws-lambda declares the global always there, with
  // stream types of its own.
  const runtime: Partial<LambdaStreaming> | undefined = Object.getOwnPropertyDescriptor(globalThis, 'awslambda')?.value;
  return typeof runtime?.streamifyResponse === 'function' ? (runtime as LambdaStreaming) : undefined;
};

/** Wraps a streaming handler for Lambda; locally the plain function is used. */
export function streamifyResponse(handler: StreamingHandler): StreamingHandler {
  return lambdaRuntime()?.streamifyResponse(handler) ?? handler;
}

/** Sends status and headers, returning the stream to write the body to. */
export function startHttpStream(stream: Writable, metadata: StreamMetadata): Writable {
  const runtime = lambdaRuntime();
  if (runtime) return runtime.HttpResponseStream.from(stream, metadata);
  (stream as LocalResponseStream).setMetadata(metadata);
  return stream;
}
