/**
 * Marking a community activated, whichever way its token arrived (an `activation` event, `/activate`
 * from the operator's Telegram bot, Discord's `/activate` slash command): the change is written with
 * its `community.activated` webhook event (the outbox) in one transaction, so the event exists
 * exactly when activation committed, once, however often the token is presented.
 */
import { now } from '#shared/adapters/ports';
import { markActivatedItem, type CommunityRecord } from '#shared/store/communitiesRepo';
import { writeIfCondition } from '#shared/store/client';
import { writeTogether } from '#shared/store/transactions';
import { announce, webhookEvent } from '#shared/domain/webhooks/outbox';

/** True when this call activated the community; false when it was activated already (or the token is not its own). */
export async function markCommunityActivated(community: CommunityRecord, token: string): Promise<boolean> {
  const at = now().toISOString();
  const event = webhookEvent(community.userId, 'community.activated', { kind: 'community', id: community.id }, at);
  if (
    !(await writeIfCondition(() =>
      writeTogether({ community: markActivatedItem(community, token, at), event: event.item }),
    ))
  )
    return false;
  await announce([event]);
  return true;
}
