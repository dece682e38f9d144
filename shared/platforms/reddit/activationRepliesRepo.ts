/**
 * Reddit's activation replies: which activation message's confirmation a community's reply went to,
 * kept on the community's platform record, so two reads of the inbox at once send one reply.
 */
import { writeIfCondition } from '#shared/store/client';
import { getPlatformRecord, platformRecords, updatePlatformItem } from '#shared/store/platformRepo';

/**
 * How long a read holds the confirmation it claimed. A read that stopped before sending it (the process
 * ended) leaves the claim to lapse: the next read of the still unread message claims it and sends it.
 */
const ACTIVATION_REPLY_LEASE_MS = 120_000;

/**
 * Claims the confirmation of one activation message, so two reads of the message at once (the minute's
 * poll and a POST /sync) send one reply: `claimed` for the read that is to send it; `sent` once one
 * was sent; `held` while another read holds it (that message stays unread until the outcome is known).
 */
export async function claimActivationReply(
  communityId: string,
  messageId: string,
  nowMs: number,
): Promise<'claimed' | 'sent' | 'held'> {
  const claimed = await writeIfCondition(() =>
    updatePlatformItem(communityId, {
      set: {
        entity: platformRecords.name,
        activationReplyTo: messageId,
        activationReplyUntil: nowMs + ACTIVATION_REPLY_LEASE_MS,
      },
      // A sent reply has no lease left (activationReplyUntil removed), so it is never claimed again.
      condition: {
        expression: 'attribute_not_exists(activationReplyTo) OR activationReplyTo <> :m OR activationReplyUntil < :now',
        values: { ':m': messageId, ':now': nowMs },
      },
    }),
  );
  if (claimed) return 'claimed';
  const { activationReplyTo, activationReplyUntil } = await getPlatformRecord(communityId);
  return activationReplyTo === messageId && activationReplyUntil === undefined ? 'sent' : 'held';
}

/** The claimed confirmation went out: no later read sends it again. */
export async function markActivationReplySent(communityId: string, messageId: string): Promise<void> {
  await writeIfCondition(() =>
    updatePlatformItem(communityId, {
      remove: ['activationReplyUntil'],
      condition: { expression: 'activationReplyTo = :m', values: { ':m': messageId } },
    }),
  );
}

/** Gives a claim back when its reply could not be sent: the next read of the message claims and sends it. */
export async function releaseActivationReply(communityId: string, messageId: string): Promise<void> {
  await writeIfCondition(() =>
    updatePlatformItem(communityId, {
      remove: ['activationReplyTo', 'activationReplyUntil'],
      condition: { expression: 'activationReplyTo = :m', values: { ':m': messageId } },
    }),
  );
}
