/** The worker's side of platform moderation: one queue record, one delivery or one AutoMod sync. */
import { parsePlatformMessage } from './platformMessageSchema';
import { RetryLater, sendPlatformMessages, type PlatformMessage } from './platformMessages';
import { runDelivery } from './platformCallRunner';
import { syncAutomod } from './discordAutomod';
import { runPoll } from './polling';

export { parsePlatformMessage };

const HANDLERS: { [K in PlatformMessage['kind']]: (msg: Extract<PlatformMessage, { kind: K }>) => Promise<unknown> } = {
  'moderation.deliver': (msg) => runDelivery(msg.community_id, msg.delivery_id),
  'moderation.automod_sync': (msg) => syncAutomod(msg.user_id, msg.community_id),
  'moderation.poll': (msg) => runPoll(msg),
};

/** One platform message, parsed by the worker (which tells it apart from pipeline messages that way). */
export async function handlePlatformMessage(msg: PlatformMessage): Promise<void> {
  try {
    await (HANDLERS[msg.kind] as (m: PlatformMessage) => Promise<unknown>)(msg);
  } catch (err) {
    if (!(err instanceof RetryLater)) throw err;
    await sendPlatformMessages([msg], err.seconds);
  }
}
