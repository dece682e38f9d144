import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '#shared/adapters/ports';
import { renewCommunity, type RenewalOutcome } from '#shared/domain/moderation/renewals';
import { getCommunity } from '#shared/store/communitiesRepo';
import { ddb, table } from '#shared/store/client';
import { communityKey } from '#shared/store/keys';

/**
 * Writes fields of a community's record straight into the table, for states the API does not leave
 * behind any more but older data may hold (a type changed while a platform binding stayed, a
 * community connected on its new platform).
 */
export async function setCommunityFields(
  userId: string,
  communityId: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const entries = Object.entries(fields);
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: communityKey(userId, communityId),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
    }),
  );
}

/**
 * The renewal sweep's step for this one community, as a sweep finds it once its period is over: a sweep
 * run ahead of time would renew, suspend or expire the communities of other test files in the table.
 * A period still running at the present is made to end a second ago first (only a period that has ended
 * may expire or be suspended); its due index is left alone, so no other file's sweep finds it early.
 */
export async function renewOnceDue(userId: string, communityId: string): Promise<RenewalOutcome> {
  let c = await getCommunity(userId, communityId, true);
  if (!c?.nextBillingAt) throw new Error(`community ${communityId} has no period to renew`);
  if (Date.parse(c.nextBillingAt) > now().getTime()) {
    await setCommunityFields(userId, communityId, { nextBillingAt: new Date(now().getTime() - 1000).toISOString() });
    c = await getCommunity(userId, communityId, true);
    if (!c?.nextBillingAt) throw new Error(`community ${communityId} has no period to renew`);
  }
  return renewCommunity(c, now());
}
