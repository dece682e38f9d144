/**
 * Channel types a community can be bound to: the platforms' closed list (shared/platforms/names.ts), each
 * with its folder and registry row. Every type starts pending_activation until it is bound on its
 * platform with its activation token.
 */
export { COMMUNITY_TYPES, type CommunityType } from '#shared/platforms/names';

/** Billing terms. */
export const COMMUNITY_PRICING = {
  provisionCredits: 500,
  monthlyCredits: 500,
  periodDays: 30,
  toolName: 'moderation_community',
} as const;

export const DEFAULT_ALERT_TEMPLATE = 'Moderation: {action} applied to {username}';
/** The alert a community posts: its own template, or the default when it set none (or an empty one). */
export const alertTemplateOf = (c: { alertTemplate: string | null }): string =>
  c.alertTemplate || DEFAULT_ALERT_TEMPLATE;
export const DEFAULT_WELCOME_MESSAGE = 'Welcome, {username}! Please read the pinned rules before posting.';

export type CommunityStatus = 'connected' | 'pending_activation' | 'suspended' | 'expired';

/**
 * Bound on its platform. A community without a token was connected at once, unbound, before every type
 * had to be bound (reddit, x, crisp): it was never bound, so it is not (it gets a token when next read).
 */
export const isActivated = (c: { activatedAt: string | null; activationToken?: string | null }): boolean =>
  c.activatedAt !== null && c.activationToken !== null;

/** Billing decides first (a suspended or expired community is not monitored); then whether it is bound. */
export const communityStatus = (c: {
  billingState: 'active' | 'suspended' | 'expired';
  activatedAt: string | null;
  activationToken?: string | null;
}): CommunityStatus =>
  c.billingState !== 'active' ? c.billingState : isActivated(c) ? 'connected' : 'pending_activation';

/** Epoch ms a suspended community was last paid again (undefined: never suspended, or never paid since). */
export function resumedMs(c: { resumedAt?: string | null }): number | undefined {
  const ms = c.resumedAt ? Date.parse(c.resumedAt) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}
