/**
 * What a platform queue message may be, checked where one is read (the worker). Apart from
 * platformMessages.ts so that what only sends them (the poll fan-out) carries no validator, nor the
 * platform registry whose platforms' own work kinds it accepts.
 */
import * as z from '#shared/zod';
import { parseJsonAs } from '#shared/json';
import { PLATFORM_WORK } from '#shared/platforms/registry';

export const deliverMessage = z.object({
  kind: z.literal('moderation.deliver'),
  community_id: z.string(),
  delivery_id: z.string(),
});
/** A platform's own work for one community (PlatformWorkMessage), of a kind one platform's `work` declares. */
export const platformWorkMessage = z.object({
  kind: z.enum([...PLATFORM_WORK.keys()] as [string, ...string[]]),
  user_id: z.string(),
  community_id: z.string(),
});
/** One shard of a polled platform's communities, or (without communities) the operator account's own poll. */
export const pollMessage = z.object({
  kind: z.literal('moderation.poll'),
  platform: z.string(),
  communities: z.array(z.object({ user_id: z.string(), community_id: z.string(), external_id: z.string() })),
  operator: z.optional(z.boolean()),
});
export const platformMessage = z.discriminatedUnion('kind', [deliverMessage, platformWorkMessage, pollMessage]);
export type PlatformMessage = z.output<typeof platformMessage>;

export const parsePlatformMessage = (body: string): PlatformMessage | undefined => parseJsonAs(platformMessage, body);
