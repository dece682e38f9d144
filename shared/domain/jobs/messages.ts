/** The pipeline queue's job messages. One stage of one batch, or the job's final step. */
import * as z from '#shared/zod';
import { ports } from '#shared/adapters/ports';
import { CAPABILITY_NAMES } from './capabilities';
import { parseJsonAs } from '#shared/json';

export const stageMessage = z.object({
  kind: z.literal('bd_job.stage'),
  user_id: z.string(),
  job_id: z.string(),
  batch_no: z.int().check(z.gte(0)),
  step: z.int().check(z.gte(0)),
  capability: z.enum(CAPABILITY_NAMES),
});
export const finalizeMessage = z.object({
  kind: z.literal('bd_job.finalize'),
  user_id: z.string(),
  job_id: z.string(),
});
export const jobMessage = z.discriminatedUnion('kind', [stageMessage, finalizeMessage]);

export type StageMessage = z.output<typeof stageMessage>;
export type FinalizeMessage = z.output<typeof finalizeMessage>;
export type JobMessage = z.output<typeof jobMessage>;

export async function sendJobMessages(messages: JobMessage[]): Promise<void> {
  if (messages.length) await ports().queue.send(messages.map((m) => ({ body: JSON.stringify(m) })));
}

/** The message's job, when the body is one of ours (a dead letter may be anything). */
export const parseJobMessage = (body: string): JobMessage | undefined => parseJsonAs(jobMessage, body);
