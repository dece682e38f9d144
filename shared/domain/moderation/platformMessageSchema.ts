/**
 * What a platform queue message may be, checked where one is read (the worker). Apart from
 * platformMessages.ts so that what only sends them (the poll fan-out) carries no validator.
 */
import * as z from '#shared/zod';
import { parseJsonAs } from '#shared/json';

export const deliverMessage = z.object({
  kind: z.literal('moderation.deliver'),
  community_id: z.string(),
  delivery_id: z.string(),
});
export const automodSyncMessage = z.object({
  kind: z.literal('moderation.automod_sync'),
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
export const platformMessage = z.discriminatedUnion('kind', [deliverMessage, automodSyncMessage, pollMessage]);
export type PlatformMessage = z.output<typeof platformMessage>;

export const parsePlatformMessage = (body: string): PlatformMessage | undefined => parseJsonAs(platformMessage, body);
