/** The per-community rules document, one item beside the engine's state. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CommunityRules } from '#shared/domain/moderation/communityRules';
import { ddb, table } from './client';
import { moderationRulesKey } from './keys';
import { defineEntity } from './entity';

const rulesDocuments = defineEntity<{ rules: CommunityRules; updatedAt: string }>()({
  name: 'moderationRules',
  key: (r: { communityId: string }) => moderationRulesKey(r.communityId),
  keyOnly: ['communityId'],
});

/**
 * The stored document as it was written (an older one may lack settings added since), or undefined when the
 * owner never changed the rules: the domain fills in the defaults (shared/domain/moderation/communityRulesReads.ts).
 */
export async function getStoredCommunityRules(
  communityId: string,
  consistent = false,
): Promise<Partial<CommunityRules> | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: rulesDocuments.key({ communityId }), ConsistentRead: consistent }),
  );
  return rulesDocuments.maybe(Item)?.rules;
}

export async function putCommunityRules(communityId: string, rules: CommunityRules, at: string): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: rulesDocuments.item({ communityId, rules, updatedAt: at }),
    }),
  );
}
