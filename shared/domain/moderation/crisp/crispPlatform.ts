/**
 * Crisp's side of the platform port: a stored call goes out through the plugin's REST adapter with
 * the operator's token, and what a successful block starts or ends is recorded when it is applied.
 * A mute's block is lifted MUTE_SECONDS after the block went through (not after the message was
 * written: a delivery held back by a rate limit still mutes for the full time), by the minute
 * sweep below, since a queue delay stops at 15 minutes.
 */
import { now, ports } from '#shared/adapters/ports';
import { CrispApi, type CrispMethod } from '#shared/adapters/platforms/crispApi';
import type { CallOutcome } from '#shared/adapters/platforms/result';
import type { PlannedCall } from '#shared/store/deliveriesRepo';
import { dropCrispMute, listEndedCrispMutes, putCrispMute, takeEndedCrispMute } from '#shared/store/crispMutesRepo';
import { scheduleDelivery } from '../delivery';
import { MUTE_SECONDS } from '../platformActions';
import { crispMuteEndCalls, type CrispCall, type CrispCallEffect } from './crispCalls';

export const crispPlanned = (call: CrispCall): PlannedCall => ({
  platform: 'crisp',
  method: call.method,
  route: call.route,
  ...(call.body ? { body: call.body } : {}),
  ...(call.effect ? { effect: { ...call.effect } } : {}),
});

export async function crispConfigured(): Promise<boolean> {
  const { tokenIdentifier, tokenKey } = (await ports().secrets.platformCredentials()).crisp;
  return tokenIdentifier !== undefined && tokenKey !== undefined;
}

export async function sendCrispCall(call: PlannedCall, communityId: string): Promise<CallOutcome | 'not_configured'> {
  const { tokenIdentifier, tokenKey, apiBase } = (await ports().secrets.platformCredentials()).crisp;
  if (!tokenIdentifier || !tokenKey) return 'not_configured';
  const outcome = await new CrispApi(tokenIdentifier, tokenKey, apiBase).request(call.method as CrispMethod, call.route ?? '/', call.body);
  if (outcome.ok && call.effect) await applyEffect(communityId, call.effect as unknown as CrispCallEffect);
  return outcome;
}

async function applyEffect(communityId: string, effect: CrispCallEffect): Promise<void> {
  if (effect.on === 'mute_block') {
    const endsAt = new Date(now().getTime() + MUTE_SECONDS * 1000).toISOString();
    await putCrispMute({ communityId, websiteId: effect.websiteId, sessionId: effect.sessionId, endsAt });
    return;
  }
  // Blocked for good, or unblocked: nothing is left for the sweep to lift.
  await dropCrispMute(communityId, effect.sessionId);
}

/**
 * The minute sweep: each mute that is over has its conversation unblocked, once. The unblock is
 * planned before the mute leaves the index, so a sweep that dies between the two leaves it for the
 * next one (which finds the same delivery planned).
 */
export async function liftEndedCrispMutes(at = now()): Promise<{ lifted: number }> {
  let lifted = 0;
  for (const mute of await listEndedCrispMutes(at.toISOString())) {
    await scheduleDelivery({
      communityId: mute.communityId,
      deliveryId: `crisp-mute-end:${mute.sessionId}:${mute.endsAt}`,
      purpose: 'mute_end',
      calls: crispMuteEndCalls({ websiteId: mute.websiteId, sessionId: mute.sessionId }).map(crispPlanned),
      observe: false,
    });
    if (await takeEndedCrispMute(mute)) lifted += 1;
  }
  return { lifted };
}
