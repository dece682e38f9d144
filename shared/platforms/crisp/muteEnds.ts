/**
 * The minute sweep's Crisp part: each conversation whose mute is over is unblocked, once. The unblock
 * is planned before the mute leaves the due index, so a sweep that dies between the two leaves it for
 * the next one, which finds the same delivery already planned.
 */
import { now } from '#shared/adapters/ports';
import { listEndedCrispMutes, takeEndedCrispMute } from './mutesRepo';
import type { DeliveryCore } from '#shared/platforms/contract';
import { crispUnblockCalls } from './calls';

export async function liftEndedCrispMutes(core: DeliveryCore, at = now()): Promise<{ lifted: number }> {
  let lifted = 0;
  for (const mute of await listEndedCrispMutes(at.toISOString())) {
    await core.scheduleDelivery({
      communityId: mute.communityId,
      deliveryId: `crisp-mute-end:${mute.sessionId}:${mute.endsAt}`,
      purpose: 'mute_end',
      calls: crispUnblockCalls({ websiteId: mute.websiteId, sessionId: mute.sessionId }, 'mute'),
      // A block that was applied is lifted whatever the mode is now.
      observe: false,
    });
    if (await takeEndedCrispMute(mute)) lifted += 1;
  }
  return { lifted };
}
