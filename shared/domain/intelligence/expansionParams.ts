/**
 * The parameters of each expansion type, as the expansion module validates them (quote and expand
 * both parse them here); the OpenAPI document describes them in words beside the endpoints.
 */
import * as z from '#shared/zod';
import { CONTACT_TIER_IDS, MAX_INCREASE_LIMIT_BLOCKS, type ExpansionType } from './packages';

export const selection = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('all') }),
  z.strictObject({ mode: z.literal('top_n'), n: z.int().check(z.gte(1), z.lte(100)) }),
  z.strictObject({
    mode: z.literal('ids'),
    record_ids: z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(100)),
  }),
]);
export const expansionParamSchemas = {
  contact_unlock: z.strictObject({ selection, contact_tier: z.enum(CONTACT_TIER_IDS) }),
  increase_limit: z.strictObject({ blocks: z.int().check(z.gte(1), z.lte(MAX_INCREASE_LIMIT_BLOCKS)) }),
  network_depth: z.strictObject({ selection }),
} satisfies Record<ExpansionType, z.ZodMiniType>;
export type ExpansionParams = { [K in ExpansionType]: z.output<(typeof expansionParamSchemas)[K]> };
