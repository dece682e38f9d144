/**
 * An event's `data` is its subject as the subject's GET returns it, rendered once at dispatch (the
 * outbox item in the state change's transaction holds only the reference, keeping that write small).
 */
import { config } from '#shared/config/config';
import { NotFoundError } from '#shared/domain/errors';
import type { WebhookEventRecord } from '#shared/store/webhookEventsRepo';
import { getGrowthRun } from '#shared/domain/growth/runs';
import { getJobForUser } from '#shared/domain/jobs/jobOperations';
import { readCommunityView } from '#shared/domain/moderation/communityReads';
import type { SubjectKind } from './outbox';

/** Links inside a rendered object (a run's export URLs) point at the public API. */
const apiBaseUrl = () => config().publicBaseUrl ?? 'http://localhost:3000/api/v1';

const RENDERERS: Record<SubjectKind, (e: WebhookEventRecord) => Promise<unknown>> = {
  job: (e) => getJobForUser(e.userId, e.subject.id),
  growth_run: (e) => getGrowthRun(e.userId, e.subject.id, apiBaseUrl()),
  community: (e) => readCommunityView(e.userId, e.subject.id),
  credits: async (e) => e.extra,
};

/** The event's data, or undefined when its subject is gone (deleted since): such an event is not sent. */
export async function renderEventData(e: WebhookEventRecord): Promise<unknown> {
  try {
    return await RENDERERS[e.subject.kind as SubjectKind](e);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
