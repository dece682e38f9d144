/**
 * The worker's side of platform moderation: one queue record, one delivery, one poll, or one piece of a
 * platform's own work (Discord's AutoMod sync), which the registry finds by the message's kind.
 */
import { PLATFORM_WORK } from '#shared/platforms/registry';
import { RetryLater } from '#shared/platforms/result';
import { parsePlatformMessage } from './platformMessageSchema';
import { sendPlatformMessages, type PlatformMessage } from './platformMessages';
import { runDelivery } from './platformCallRunner';
import { PLATFORM_CORE } from './platformCore';
import { runPoll } from './polling';

export { parsePlatformMessage };

/** The core's own messages; any other kind is a platform's work (the schema admits only registered kinds). */
type CoreMessage = Extract<PlatformMessage, { kind: 'moderation.deliver' | 'moderation.poll' }>;

const HANDLERS: { [K in CoreMessage['kind']]: (msg: Extract<CoreMessage, { kind: K }>) => Promise<unknown> } = {
  'moderation.deliver': (msg) => runDelivery(msg.community_id, msg.delivery_id),
  'moderation.poll': (msg) => runPoll(msg),
};

const isCoreMessage = (msg: PlatformMessage): msg is CoreMessage => Object.hasOwn(HANDLERS, msg.kind);

async function run(msg: PlatformMessage): Promise<unknown> {
  if (isCoreMessage(msg)) return (HANDLERS[msg.kind] as (m: CoreMessage) => Promise<unknown>)(msg);
  const work = PLATFORM_WORK.get(msg.kind);
  if (!work) throw new Error(`No platform runs ${msg.kind}`);
  return work.run(msg, PLATFORM_CORE);
}

/** One platform message, parsed by the worker (which tells it apart from pipeline messages that way). */
export async function handlePlatformMessage(msg: PlatformMessage): Promise<void> {
  try {
    await run(msg);
  } catch (err) {
    if (!(err instanceof RetryLater)) throw err;
    await sendPlatformMessages([msg], err.seconds);
  }
}
