/** The per-community rules document, one item beside the engine's state. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_COMMUNITY_RULES, withDefaults, type CommunityRules } from '#shared/domain/moderation/communityRules';
import { ddb, table } from './client';
import { moderationRulesKey } from './keys';
import { defineEntity } from './entity';

const rulesDocuments = defineEntity<{ rules: CommunityRules; updatedAt: string }>()({
  name: 'moderationRules',
  key: (r: { communityId: string }) => moderationRulesKey(r.communityId),
  keyOnly: ['communityId'],
});

/** The stored document, or the defaults when the owner never changed them. */
export async function getCommunityRules(communityId: string, consistent = false): Promise<CommunityRules> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: rulesDocuments.key({ communityId }), ConsistentRead: consistent }),
  );
  const stored = rulesDocuments.maybe(Item)?.rules;
  return stored ? withDefaults(stored) : DEFAULT_COMMUNITY_RULES;
}

export async function putCommunityRules(communityId: string, rules: CommunityRules, at: string): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: rulesDocuments.item({ communityId, rules, updatedAt: at }),
    }),
  );
}
