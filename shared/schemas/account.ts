import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { ADD_ON_TYPES } from '#shared/domain/billing/plans';
import { isoDate, timestamp } from './common';

export const userProfile = withMeta(
  z.object({
    id: z.uuid(),
    email: z.string(),
    full_name: z.nullable(z.string()),
    is_active: z.boolean(),
    role: z.string(),
    subscription_tier: z.enum(['developer', 'pro']),
    subscription_status: z.string(),
    current_period_end: z.nullable(timestamp),
    permanent_credit_balance: z.int(),
    api_key_last_four: z.nullable(z.string()),
    referral_code: z.string(),
  }),
  { id: 'UserProfile' },
);

export const subscriptionStatus = withMeta(
  z.object({
    tier: z.enum(['developer', 'pro']),
    status: z.string(),
    credits_total: z.int(),
    credits_expiring: z.nullable(timestamp),
    monthly_cost: z.number(),
    addons: z.array(z.string()),
    addon_quantities: z.record(z.string(), z.int()),
    next_billing_date: z.nullable(timestamp),
    current_period_start: z.nullable(timestamp),
    current_period_end: z.nullable(timestamp),
  }),
  { id: 'SubscriptionStatus' },
);

export const creditUsage = withMeta(
  z.object({
    start_date: isoDate,
    end_date: isoDate,
    total_used: z.int(),
    allowance: z.nullable(z.int()),
    percentage_used: z.nullable(z.number()),
    average_daily: z.number(),
    projected: z.nullable(z.int()),
    top_tool: z.nullable(z.string()),
    by_tool: z.array(z.object({ tool_name: z.string(), credits: z.int() })),
    by_day: z.array(z.object({ date: isoDate, credits: z.int() })),
  }),
  { id: 'CreditUsage' },
);

const tag = 'Account';

export const accountEndpoints = {
  getMe: defineEndpoint({
    operationId: 'getMe',
    method: 'GET',
    path: '/api/v1/users/me',
    summary: 'Your profile',
    tag,
    auth: 'api_key',
    response: userProfile,
  }),
  updateMe: defineEndpoint({
    operationId: 'updateMe',
    method: 'PATCH',
    path: '/api/v1/users/me',
    summary: 'Change your name or e-mail; only the included fields change',
    tag,
    auth: 'api_key',
    body: z.strictObject({
      // A blank name means "unset", which the profile shows as null.
      full_name: z.pipe(
        z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(255)))),
        z.transform((v) => (v === '' ? null : v)),
      ),
      email: z.optional(
        withMeta(
          z.email().check(
            z.maxLength(254),
            z.refine((v) => v.lastIndexOf('@') <= 64, 'The part before @ is at most 64 characters'),
          ),
          {
            description: 'At most 254 characters, of which at most 64 before the @ (RFC 5321)',
          },
        ),
      ),
    }),
    response: userProfile,
    errors: [409],
  }),
  rotateApiKey: defineEndpoint({
    operationId: 'rotateApiKey',
    method: 'POST',
    path: '/api/v1/users/me/api-key',
    summary: 'Issue a new API key; the old one stops working at once',
    tag,
    auth: 'api_key',
    response: z.object({ api_key: z.string(), api_key_last_four: z.string() }),
  }),
  subscriptionStatus: defineEndpoint({
    operationId: 'getSubscriptionStatus',
    method: 'GET',
    path: '/api/v1/subscriptions/status',
    summary: 'Subscription and credit status',
    tag,
    auth: 'api_key',
    response: subscriptionStatus,
  }),
  checkoutSession: defineEndpoint({
    operationId: 'createCheckoutSession',
    method: 'POST',
    path: '/api/v1/subscriptions/checkout-session',
    summary: 'Start a pro subscription checkout',
    tag,
    auth: 'api_key',
    idempotent: true,
    errors: [409],
    body: z.strictObject({
      tier: z.literal('pro'),
      add_ons: z.optional(z.array(z.enum(ADD_ON_TYPES as [string, ...string[]])).check(z.maxLength(10))),
    }),
    response: z.object({ checkout_url: z.string(), checkout_session_id: z.string() }),
  }),
  creditUsage: defineEndpoint({
    operationId: 'getCreditUsage',
    method: 'GET',
    path: '/api/v1/credits/usage',
    summary: 'Credit usage analytics for a date range (default: the last 30 days)',
    tag,
    auth: 'api_key',
    description:
      'Usage between `start_date` and `end_date` (both inclusive, UTC days; default: the last 30 days). A range may cover at most 366 days; a longer one is a 400 validation_error.',
    query: z.strictObject({ start_date: z.optional(isoDate), end_date: z.optional(isoDate) }),
    response: creditUsage,
  }),
};
