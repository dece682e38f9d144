import type { Writable } from 'node:stream';
import { useAwsPorts } from '../../shared/adapters/aws';
import { optionalEnv } from '../../shared/config/env';
import { loadCaller } from '../../shared/domain/accounts/accounts';
import { acceptsEventStream, streamJobEvents, type EventSink } from '../../shared/domain/jobs/events';
import { requireJob } from '../../shared/domain/jobs/requireJob';
import { NO_STORE, lowerCaseHeaders } from '../../shared/http/api';
import { NotAcceptableError, logServerError, toErrorResponse } from '../../shared/http/errors';
import { startHttpStream, streamifyResponse } from '../../shared/http/streaming';
import { parseOrThrow } from '../../shared/http/validation';
import { uuidv7 } from '../../shared/ids';
import { jobsEndpoints } from '../../shared/schemas/jobs';
import { logger } from '../../shared/observability/logger';

useAwsPorts();

const sinkOf = (out: Writable): EventSink => ({
  write: (chunk) => void out.write(chunk),
  get closed() {
    return out.destroyed || out.writableEnded;
  },
  onClose: (listener) => void out.once('close', listener),
});

/**
 * GET /bd/jobs/{job_id}/events. Key, path, Accept and ownership are checked before the stream opens,
 * so those errors are ordinary JSON error responses; then the body is the event stream.
 * JOB_EVENTS_POLL_MS and JOB_EVENTS_KEEPALIVE_MS override the 2 s poll and 15 s keep-alive (tests).
 */
export const handler = streamifyResponse(async (event, responseStream, context) => {
  const requestId = event.requestContext?.requestId ?? uuidv7();
  if (context) logger.addContext(context);
  logger.appendKeys({ requestId, route: 'GET /api/v1/bd/jobs/{job_id}/events' });
  const headers = lowerCaseHeaders(event.headers);
  let userId: string;
  let jobId: string;
  try {
    const authorizer = (event.requestContext?.authorizer ?? {}) as Record<string, string | undefined>;
    const user = await loadCaller(authorizer.userId, authorizer.keyHash);
    ({ job_id: jobId } = parseOrThrow(jobsEndpoints.jobEvents.params, event.pathParameters ?? {}, 'path'));
    if (!acceptsEventStream(headers.accept)) throw new NotAcceptableError('This endpoint streams text/event-stream; send Accept: text/event-stream.');
    await requireJob(user.id, jobId);
    userId = user.id;
  } catch (err) {
    const mapped = toErrorResponse(err, requestId);
    if (mapped.status >= 500) logServerError(requestId, err);
    const out = startHttpStream(responseStream, { statusCode: mapped.status, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...NO_STORE, ...mapped.headers } });
    out.end(JSON.stringify(mapped.body));
    return;
  }

  const out = startHttpStream(responseStream, {
    statusCode: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-request-id': requestId, 'x-accel-buffering': 'no' },
  });
  try {
    await streamJobEvents({
      userId,
      jobId,
      sink: sinkOf(out),
      pollMs: Number(optionalEnv('JOB_EVENTS_POLL_MS') ?? 2000),
      keepAliveMs: Number(optionalEnv('JOB_EVENTS_KEEPALIVE_MS') ?? 15_000),
      timeLeftMs: () => context.getRemainingTimeInMillis(),
    });
  } catch (err) {
    // Headers are gone: the stream just ends; the client's reconnect gets a proper status.
    logServerError(requestId, err);
  } finally {
    if (!out.writableEnded && !out.destroyed) out.end();
  }
});
