/**
 * A subreddit belongs to one community at a time: the binding is created only if the subreddit is
 * free (or already this community's), so a second community cannot take it over silently.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './client';
import { redditSubredditKey } from './keys';

export interface SubredditBinding {
  userId: string;
  communityId: string;
  subreddit: string;
}

/**
 * True when the subreddit is now (or already was) bound to this community; false when another has it.
 * `replacing`: the community id of a binding whose community no longer exists, taken over.
 */
export async function claimSubreddit(binding: SubredditBinding, replacing?: string): Promise<boolean> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: { ...redditSubredditKey(binding.subreddit), entity: 'platformBinding', platform: 'reddit', ...binding },
        ConditionExpression: 'attribute_not_exists(pk) OR communityId = :mine OR communityId = :gone',
        ExpressionAttributeValues: { ':mine': binding.communityId, ':gone': replacing ?? binding.communityId },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function subredditBinding(subreddit: string): Promise<SubredditBinding | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: redditSubredditKey(subreddit) }));
  return Item ? { userId: Item.userId as string, communityId: Item.communityId as string, subreddit: Item.subreddit as string } : undefined;
}
