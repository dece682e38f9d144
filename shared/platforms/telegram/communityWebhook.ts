/**
 * A community's own Telegram bot, pointed at this service (setWebhook with the community's activation
 * token as its secret): its updates become the community's events for the engine. The operator's bot,
 * shared by every group it is in, is bot.ts.
 */
import { NotFoundError } from '#shared/domain/errors';
import { getCommunityByModerationId } from '#shared/store/communitiesRepo';
import type { ModerationCore } from '#shared/platforms/contract';
import { toChatEvents, type TelegramUpdate } from './updates';
import { sameSecret } from '#shared/ids';

/**
 * Telegram's webhook: no API key, so the secret header (the activation token Telegram was given with
 * setWebhook) proves the caller. A wrong secret looks exactly like an unknown community.
 */
export async function moderateTelegramUpdate(
  moderationId: string,
  secretToken: string | undefined,
  update: TelegramUpdate,
  core: ModerationCore,
) {
  const community = await getCommunityByModerationId(moderationId);
  if (
    community?.type !== 'telegram' ||
    !community.activationToken ||
    !secretToken ||
    !sameSecret(secretToken, community.activationToken)
  ) {
    throw new NotFoundError('Community');
  }
  return core.moderateEvents(community, toChatEvents(update));
}
