import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { timestamp } from './common';
import {
  EXPANSIONS,
  INCREASE_LIMIT_BLOCK,
  MAX_INCREASE_LIMIT_BLOCKS,
  PACKAGE_IDS,
  PACKAGES,
  type ExpansionType,
  type PackageDef,
} from '#shared/domain/intelligence/packages';

/** The package table rendered for the OpenAPI document: slots, limits, fields, channels, expansions, prices. */
const packageDoc = (p: PackageDef) =>
  `**${p.id}** (${p.name}): ${p.description} Slots: ${Object.entries(p.slots)
    .map(
      ([name, s]) =>
        `\`${name}\`${name === 'limit' ? ` (default ${p.limit.default}, max ${p.limit.max})` : s.required ? ' (required)' : ''} ${s.description.replace(/\.$/, '')}`,
    )
    .join('; ')}. Tier 1 fields: ${p.fields.join(', ')}. ` +
  `Contact channels: ${p.channels.join(', ')}. Expansions: ${p.expansions.join(', ')}. Price: ${p.price.base} + ${p.price.perRecord} per record returned.`;
const PACKAGES_DOC = Object.values(PACKAGES).map(packageDoc).join('\n\n');

const packageId = withMeta(z.enum(PACKAGE_IDS), { description: `One of the seven packages:\n\n${PACKAGES_DOC}` });
const expansionType = z.enum(Object.keys(EXPANSIONS) as [ExpansionType, ...ExpansionType[]]);
const slots = withMeta(z.record(z.string(), z.unknown()), {
  description:
    'Slot values by name (see package_id). `limit` is an integer; min_investment and max_investment are numbers (USD); min_followers, min_gm_score, min_engagement and tier take a number or a numeric string such as "10k"; the others are strings. ' +
    'Taxonomy slots (sector, stage, fund type, jurisdiction, platform, ecosystem, builder category, role) take everyday words in any case, singular or plural, with hyphens or spaces ("solidity devs", "designer", "Pre Seed", "Twitter"); filled_slots shows the taxonomy ids they map to. ' +
    '`category` and the role slots may map to several ids (e.g. "developer"), kept as one comma-separated string. A word that maps to nothing (or to several values where the slot holds one) makes resolve ask again and quote answer 400, with the nearest values in `details[].suggestions`.',
});
const outputFields = withMeta(
  z.array(z.string().check(z.minLength(1), z.maxLength(60))).check(z.minLength(1), z.maxLength(20)),
  { description: 'Tier 1 field names of the package (default: all).' },
);
const quoteToken = z.string().check(z.minLength(1), z.maxLength(200));

const expansionParams = withMeta(z.record(z.string(), z.unknown()), {
  description:
    'contact_unlock: {"selection": {"mode": "all"} | {"mode": "top_n", "n"} | {"mode": "ids", "record_ids": [...]}, "contact_tier": "social"|"email"|"telegram"|"phone"}; ' +
    `increase_limit: {"blocks": 1..${MAX_INCREASE_LIMIT_BLOCKS}} (${INCREASE_LIMIT_BLOCK} records a block); network_depth: {"selection": ...} (vc-shortlist-v1 only).`,
});

// ---- Responses -------------------------------------------------------------------------------------
const coverage = withMeta(
  z.object({
    status: z.enum(['sufficient', 'limited', 'none']),
    candidate_count: z.int(),
    note: z.nullable(z.string()),
    fallback_allowed: z.boolean(),
    alternative_route: z.nullable(
      z.object({ package_id: z.string(), reason: z.string(), slots: z.record(z.string(), z.unknown()) }),
    ),
  }),
  { id: 'IntelligenceCoverage' },
);
export const resolveResult = withMeta(
  z.object({
    intent_status: z.enum(['needs_clarification', 'ready_for_quote']),
    package_id: z.string(),
    package_name: z.string(),
    missing_slots: z.array(z.string()),
    clarification_questions: z.array(z.string()),
    filled_slots: z.record(z.string(), z.unknown()),
    coverage: z.nullable(coverage),
  }),
  { id: 'IntelligenceResolveResult' },
);
export const quote = withMeta(
  z.object({
    package_id: z.string(),
    quote_token: z.string(),
    credits: z.int(),
    output_projection_summary: z.string(),
    expiry: timestamp,
    filled_slots: z.record(z.string(), z.unknown()),
    output_fields: z.array(z.string()),
    expansion_scope: z.nullable(
      z.object({
        parent_result_id: z.uuid(),
        expansion_type: z.string(),
        expansion_params: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
  { id: 'IntelligenceQuote' },
);
export const executeResult = withMeta(
  z.object({ result_id: z.uuid(), summary: z.string(), records_count: z.int(), credits_charged: z.int() }),
  { id: 'IntelligenceExecuteResult' },
);
const record = withMeta(z.record(z.string(), z.unknown()), {
  description: 'record_id plus the selected Tier 1 fields (and contact fields once unlocked).',
});
export const intelligenceResult = withMeta(
  z.object({
    result_id: z.uuid(),
    package_id: z.string(),
    summary: z.string(),
    records_count: z.int(),
    records: z.array(record),
    available_expansions: z.array(
      z.object({ type: z.string(), label: z.string(), description: z.string(), estimated_credits: z.int() }),
    ),
    created_at: timestamp,
    parent_result_id: z.nullable(z.uuid()),
    expansion_type: z.nullable(z.string()),
  }),
  { id: 'IntelligenceResult' },
);
const expandedRecord = withMeta(z.record(z.string(), z.unknown()), {
  description:
    'record_id plus the parent’s fields and what the expansion adds. A contact_unlock record adds contact_tier, its contact fields (null where the data has none) and ' +
    '`unlock_charge: {"credits", "tier", "reason"}`: what the record cost, the tier paid for (the one asked for, or the highest below it at which the contact has a value; null when free) and why: ' +
    '`charged`, `charged_lower_tier` (nothing at the tier asked for), `no_contact_at_tier` (nothing new at or below it: free), `already_unlocked` (free) or `same_contact` (another record of this unlock is the same person: free).',
});
export const expansionResult = withMeta(
  z.object({
    result_id: z.uuid(),
    parent_result_id: z.uuid(),
    expansion_type: z.string(),
    records: z.array(expandedRecord),
    records_count: z.int(),
    credits_charged: z.int(),
  }),
  { id: 'IntelligenceExpansionResult' },
);

const tag = 'Intelligence';

export const intelligenceEndpoints = {
  resolve: defineEndpoint({
    operationId: 'resolveIntelligence',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/intelligence/resolve',
    tag,
    auth: 'api_key',
    summary: 'Fill a package’s slots from slots and/or request_text; coverage from the curated data',
    body: z.strictObject({
      package_id: packageId,
      slots: z.optional(slots),
      request_text: z.optional(z.string().check(z.maxLength(2000))),
    }),
    response: resolveResult,
  }),
  quote: defineEndpoint({
    operationId: 'quoteIntelligence',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/intelligence/quote',
    tag,
    auth: 'api_key',
    errors: [404, 422],
    summary:
      'Price a package run (or an expansion, with expansion_scope); the token lives 15 minutes and is single use',
    body: z.strictObject({
      package_id: packageId,
      slots: z.optional(slots),
      output_fields: z.optional(outputFields),
      chat_id: z.optional(z.uuid()),
      expansion_scope: withMeta(
        z.optional(
          z.strictObject({
            parent_result_id: z.uuid(),
            expansion_type: expansionType,
            expansion_params: expansionParams,
          }),
        ),
        {
          description:
            'Quotes an expansion of a stored result. The expansion runs on the parent result’s package, slots and output_fields: package_id, slots and output_fields may repeat them (compared in canonical form; slots or fields left out are taken from the parent). ' +
            'A different package, a slot value other than the parent’s (or a slot the parent did not have), or an output field the parent did not return answers 422 quote_mismatch with details naming each.',
        },
      ),
    }),
    response: quote,
  }),
  execute: defineEndpoint({
    operationId: 'executeIntelligence',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/intelligence/execute',
    tag,
    auth: 'api_key',
    paid: true,
    idempotent: true,
    errors: [402, 404, 410, 422],
    summary: 'Run a quoted package; charges base + per record returned, never more than the quote',
    body: z.strictObject({
      package_id: packageId,
      slots: z.optional(slots),
      output_fields: z.optional(outputFields),
      quote_token: quoteToken,
    }),
    response: executeResult,
  }),
  getResult: defineEndpoint({
    operationId: 'getIntelligenceResult',
    method: 'GET',
    path: '/api/v1/intelligence/results/{result_id}',
    tag,
    auth: 'api_key',
    summary: 'A stored intelligence result (execute or expansion) with its records and available expansions',
    params: z.strictObject({ result_id: z.uuid() }),
    response: intelligenceResult,
  }),
  expand: defineEndpoint({
    operationId: 'expandIntelligence',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/intelligence/expand',
    tag,
    auth: 'api_key',
    paid: true,
    idempotent: true,
    errors: [402, 404, 410, 422],
    summary: 'Run a quoted expansion: contact_unlock, increase_limit or network_depth',
    body: z.strictObject({
      parent_result_id: z.uuid(),
      expansion_type: expansionType,
      expansion_params: expansionParams,
      quote_token: quoteToken,
    }),
    response: expansionResult,
  }),
};
