/** Undo on Discord, as data: the REST routes that lift a timeout or a ban (AutoMod's own actions need none). */
import type { RESTPatchAPIGuildMemberJSONBody } from 'discord-api-types/v10';
import type { PenaltyAction } from '#shared/domain/moderation/actions';
import type { PlannedCall } from '#shared/store/platformCallsRepo';

const liftTimeout: RESTPatchAPIGuildMemberJSONBody = { communication_disabled_until: null };
export const DISCORD_UNDO_CALLS = {
  mute: (guildId, userId) => [
    {
      platform: 'discord',
      method: 'PATCH',
      route: `/guilds/${guildId}/members/${userId}`,
      body: liftTimeout as Record<string, unknown>,
    },
  ],
  ban: (guildId, userId) => [{ platform: 'discord', method: 'DELETE', route: `/guilds/${guildId}/bans/${userId}` }],
} satisfies Partial<Record<PenaltyAction, (guildId: string, userId: string) => PlannedCall[]>>;
