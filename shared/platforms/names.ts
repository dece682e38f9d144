/**
 * The chat platforms a community can be bound to: the closed list every per-platform table is keyed
 * by (the registry, the install links, the poll schedules, the stand-ins), so adding a name here makes
 * the compiler point at each row still missing.
 */
export const COMMUNITY_TYPES = ['telegram', 'discord', 'reddit', 'x', 'crisp'] as const;
export type CommunityType = (typeof COMMUNITY_TYPES)[number];
