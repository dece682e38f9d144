/** The per-community rules document, one item beside the engine's state. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_COMMUNITY_RULES, type CommunityRules } from '#shared/domain/moderation/communityRules';
import { ddb, table } from './client';
import { moderationRulesKey } from './keys';

/** The stored document, or the defaults when the owner never changed them. */
export async function getCommunityRules(communityId: string, consistent = false): Promise<CommunityRules> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: moderationRulesKey(communityId), ConsistentRead: consistent }),
  );
  return Item ? (Item.rules as CommunityRules) : DEFAULT_COMMUNITY_RULES;
}

export async function putCommunityRules(communityId: string, rules: CommunityRules, at: string): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: { ...moderationRulesKey(communityId), entity: 'moderationRules', rules, updatedAt: at },
    }),
  );
}
