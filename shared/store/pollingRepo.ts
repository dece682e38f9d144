/**
 * The communities each polled platform reads every minute: one item per bound community in its
 * platform's partition, written when it is bound. Whether it still bills is checked at each poll
 * (the community record), so a suspended or expired community stays listed and is skipped; a deleted
 * one is dropped from the list by the poll that finds it gone.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { polledCommunitiesPartition, polledCommunityKey } from './keys';
import { queryAll } from './query';
import { defineEntity } from './entity';

export interface PolledCommunity {
  userId: string;
  communityId: string;
  /** Where it lives on the platform (a subreddit's name, an X account's id). */
  externalId: string;
}

const polled = defineEntity<PolledCommunity & { platform: string }>()({
  name: 'polledCommunity',
  key: (p: { platform: string; communityId: string }) => polledCommunityKey(p.platform, p.communityId),
});
const toPolled = ({ userId, communityId, externalId }: PolledCommunity): PolledCommunity => ({
  userId,
  communityId,
  externalId,
});

export async function addPolledCommunity(platform: string, community: PolledCommunity): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: polled.item({ platform, ...community }),
    }),
  );
}

export async function removePolledCommunity(platform: string, communityId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: polled.key({ platform, communityId }) }));
}

export async function listPolledCommunities(platform: string): Promise<PolledCommunity[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': polledCommunitiesPartition(platform) },
  });
  return items.map((i) => toPolled(polled.fromItem(i)));
}

export async function getPolledCommunity(platform: string, communityId: string): Promise<PolledCommunity | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: polled.key({ platform, communityId }), ConsistentRead: true }),
  );
  return Item ? toPolled(polled.fromItem(Item)) : undefined;
}
