/** Channel types a community can be bound to, and what each needs before the engine sees its chat. */
export const COMMUNITY_TYPES = ['telegram', 'discord', 'reddit', 'x', 'crisp'] as const;
export type CommunityType = (typeof COMMUNITY_TYPES)[number];

/**
 * Telegram and Discord need our bot added to the chat and proven with the activation token;
 * the others are connected through the owner's API credentials at once.
 */
export const NEEDS_ACTIVATION: Record<CommunityType, boolean> = {
  telegram: true,
  discord: true,
  reddit: false,
  x: false,
  crisp: true,
};

/** Billing terms (spec 8, contract 4). */
export const COMMUNITY_PRICING = {
  provisionCredits: 500,
  monthlyCredits: 500,
  periodDays: 30,
  toolName: 'moderation_community',
} as const;

export const DEFAULT_ALERT_TEMPLATE = 'Moderation: {action} applied to {username}';
export const DEFAULT_WELCOME_MESSAGE = 'Welcome, {username}! Please read the pinned rules before posting.';

export type CommunityStatus = 'connected' | 'pending_activation' | 'suspended' | 'expired';

/** Billing decides first (a suspended or expired community is not monitored); then whether the bot is in. */
export const communityStatus = (c: { billingState: 'active' | 'suspended' | 'expired'; activatedAt: string | null }): CommunityStatus =>
  c.billingState !== 'active' ? c.billingState : c.activatedAt ? 'connected' : 'pending_activation';
