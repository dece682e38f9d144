/**
 * The job event stream's endpoint as its request chain checks it, and the shapes it shares with the
 * other job endpoints, in a module of their own: the streaming function imports only this, not every
 * job endpoint's schemas. The events' documented shape is added in jobs.ts, for the OpenAPI document.
 */
import * as z from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';

export const JOBS_TAG = 'Enrichment jobs';
export const jobStatus = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
export const jobParams = z.strictObject({ job_id: z.uuid() });

export const jobEventsEndpoint = defineEndpoint({
  operationId: 'streamJobEvents',
  method: 'GET',
  path: '/api/v1/bd/jobs/{job_id}/events',
  summary:
    'Server-Sent Events: `progress` on each change (the current state first), then `complete` once the job ends; `: keep-alive` every 15 s',
  tag: JOBS_TAG,
  description:
    'Server-Sent Events. The current state comes first as `progress`; each change is another `progress`; the end is one `complete` (never also `progress`), and a job already over gets only `complete`. Every event has an `id:`; a `: keep-alive` comment comes every 15 s. An Accept header that excludes text/event-stream is refused with 406.',
  auth: 'api_key',
  params: jobParams,
  streaming: true,
  errors: [406],
});
