/** New members waiting for the captcha button; the sparse gsi3 lists them by deadline for the sweep. */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from '#shared/store/client';
import {
  CAPTCHA_SHARDS,
  captchaDueIndexKey,
  captchaDuePartition,
  captchaDueUpTo,
  moderationCaptchaKey,
} from '#shared/store/keys';
import { queryDueShards } from '#shared/store/query';
import { defineEntity } from '#shared/store/entity';

const captchas = defineEntity<PendingCaptcha>()({
  name: 'moderationCaptcha',
  key: (c: Pick<PendingCaptcha, 'communityId' | 'userId'>) => moderationCaptchaKey(c.communityId, c.userId),
});

export interface PendingCaptcha {
  communityId: string;
  userId: string;
  chatId: number;
  deadline: string;
  /** The join's delivery, whose outcomes hold the prompt's message_id. */
  deliveryId: string;
}

/** A member who joins again while waiting keeps the first deadline. */
export async function putPendingCaptcha(c: PendingCaptcha): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: captchas.item(c, captchaDueIndexKey(c.communityId, c.userId, c.deadline)),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Removes it and returns what it was; undefined when the sweep or a press got there first. */
export async function takePendingCaptcha(communityId: string, userId: string): Promise<PendingCaptcha | undefined> {
  const { Attributes } = await ddb().send(
    new DeleteCommand({ TableName: table(), Key: captchas.key({ communityId, userId }), ReturnValues: 'ALL_OLD' }),
  );
  return captchas.maybe(Attributes);
}

export async function listExpiredCaptchas(atIso: string): Promise<PendingCaptcha[]> {
  const items = await queryDueShards(CAPTCHA_SHARDS, captchaDuePartition, captchaDueUpTo(atIso));
  return items.map(captchas.fromItem);
}
