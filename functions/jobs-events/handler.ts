import type { Writable } from 'node:stream';
import { withPorts } from '#shared/adapters/aws';
import { config } from '#shared/config/config';
import { acceptsEventStream, streamJobEvents, type EventSink } from '#shared/domain/jobs/eventStream';
import { requireJob } from '#shared/domain/jobs/requireJob';
import { createStreamGate } from '#shared/http/api';
import type { ApiLambdaContext } from '#shared/http/chain/state';
import { NotAcceptableError, logServerError } from '#shared/http/errors';
import { startHttpStream, streamifyResponse } from '#shared/http/streaming';
import { jobEventsEndpoint } from '#shared/schemas/jobEvents';

const sinkOf = (out: Writable): EventSink => ({
  write: (chunk) => void out.write(chunk),
  get closed() {
    return out.destroyed || out.writableEnded;
  },
  onClose: (listener) => void out.once('close', listener),
});

/** Key, path, Accept and ownership go through the request chain, so their errors are the usual JSON answers. */
const gate = createStreamGate(jobEventsEndpoint, async ({ user, params, headers }) => {
  if (!acceptsEventStream(headers.accept))
    throw new NotAcceptableError('This endpoint streams text/event-stream; send Accept: text/event-stream.');
  await requireJob(user.id, params.job_id);
});

/**
 * GET /bd/jobs/{job_id}/events: once the gate let the request through, the body is the event stream.
 * JOB_EVENTS_POLL_MS and JOB_EVENTS_KEEPALIVE_MS override the 2 s poll and 15 s keep-alive (tests).
 */
export const handler = streamifyResponse(
  withPorts('jobs-events', {}, async (event, responseStream, context) => {
    const outcome = await gate(event, context as ApiLambdaContext);
    if (!outcome.ready) {
      const { statusCode, headers, body } = outcome.response;
      startHttpStream(responseStream, { statusCode, headers: (headers ?? {}) as Record<string, string> }).end(body);
      return;
    }
    const { user, params, requestId } = outcome.ctx;
    const out = startHttpStream(responseStream, {
      statusCode: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store, no-transform',
        'x-request-id': requestId,
        'x-accel-buffering': 'no',
      },
    });
    try {
      await streamJobEvents({
        userId: user.id,
        jobId: params.job_id,
        sink: sinkOf(out),
        pollMs: config().jobEvents.pollMs,
        keepAliveMs: config().jobEvents.keepAliveMs,
        timeLeftMs: () => context.getRemainingTimeInMillis(),
      });
    } catch (err) {
      // Headers are gone: the stream just ends; the client's reconnect gets a proper status.
      logServerError(requestId, err);
    } finally {
      if (!out.writableEnded && !out.destroyed) out.end();
    }
  }),
);
