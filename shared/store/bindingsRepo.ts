/**
 * The bindings of places on a platform (chat, guild, subreddit, account, website) to communities: one
 * item per place, so two communities binding one place at once cannot both win.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table, writeIfCondition } from './client';
import { platformBindingKey } from './keys';
import { defineEntity } from './entity';
import type { CommunityPointer } from './activationPointersRepo';

const bindings = defineEntity<Binding & { platform: string; externalId: string }>()({
  name: 'platformBinding',
  key: (b: { platform: string; externalId: string }) => platformBindingKey(b.platform, b.externalId),
});

export type BindingRole = 'moderated' | 'alerts';
export interface Binding extends CommunityPointer {
  role: BindingRole;
}

const bindingOf = (item: Record<string, unknown>): Binding => {
  const { userId, communityId, role } = bindings.fromItem(item);
  return { userId, communityId, role };
};

/**
 * Binds a place on a platform to a community, if it is free or already that community's (a
 * conditional put: two communities binding one place at once cannot both win). `replacing` names a
 * holder the caller decided may be displaced (a deleted or expired community). Otherwise the place
 * stays where it is and the answer names the community holding it.
 */
export async function bindExternal(
  platform: string,
  externalId: string,
  binding: Binding,
  replacing?: CommunityPointer,
): Promise<{ bound: true } | { bound: false; holder: Binding | undefined }> {
  const condition = replacing
    ? { ConditionExpression: 'communityId = :holder', ExpressionAttributeValues: { ':holder': replacing.communityId } }
    : {
        ConditionExpression: 'attribute_not_exists(pk) OR communityId = :c',
        ExpressionAttributeValues: { ':c': binding.communityId },
      };
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: bindings.item({ platform, externalId, ...binding }),
        ...condition,
      }),
    );
    return { bound: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return { bound: false, holder: await boundCommunity(platform, externalId, true) };
  }
}

export async function boundCommunity(
  platform: string,
  externalId: string,
  consistent = false,
): Promise<Binding | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: platformBindingKey(platform, externalId), ConsistentRead: consistent }),
  );
  return Item ? bindingOf(Item) : undefined;
}

/** Frees a place, only while it is still the given community's (it may have been bound elsewhere since). */
export async function unbindExternal(platform: string, externalId: string, communityId: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: platformBindingKey(platform, externalId),
        ConditionExpression: 'communityId = :c',
        ExpressionAttributeValues: { ':c': communityId },
      }),
    ),
  );
}
