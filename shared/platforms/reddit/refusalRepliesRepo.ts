/**
 * When each Reddit account last got the bot's reply refusing an activation token. Anyone on Reddit can
 * send the bot `/activate <anything>`, and every reply is a request out of the budget the whole
 * deployment polls and acts from (budgetRepo.ts): such replies are claimed here first, one per
 * sender per interval, with a conditional write so two reads of the inbox at once cannot both send.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from '#shared/store/client';
import { defineEntity } from '#shared/store/entity';
import { claimOncePerInterval } from '#shared/store/intervalClaim';
import { redditRefusalReplyKey } from '#shared/store/keys';

const replies = defineEntity<{ username: string; repliedAt: string }>()({
  name: 'redditRefusalReply',
  key: (r: { username: string }) => redditRefusalReplyKey(r.username),
});

/** True when no refusal went to the account within `intervalSeconds` before `at` (and claims this one). */
export const claimRedditRefusalReply = (username: string, at: Date, intervalSeconds: number): Promise<boolean> =>
  claimOncePerInterval(
    (ttl) => replies.item({ username, repliedAt: at.toISOString() }, { ttl }),
    'repliedAt',
    at,
    intervalSeconds,
  );

/** The reply claimed at `at` could not be sent (Reddit asked to wait): the next read of the message may send it. */
export async function releaseRedditRefusalReply(username: string, at: Date): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: replies.key({ username }),
        ConditionExpression: '#replied = :at',
        ExpressionAttributeNames: { '#replied': 'repliedAt' },
        ExpressionAttributeValues: { ':at': at.toISOString() },
      }),
    ),
  );
}
