/** The activation-token pointers: a token's hash finds its community (only the hash is stored). */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '#shared/ids';
import { ddb, table } from './client';
import { activationTokenKey } from './keys';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

export interface CommunityPointer {
  userId: string;
  communityId: string;
}

const activationPointers = defineEntity<CommunityPointer>()({
  name: 'activationPointer',
  key: (p: { tokenHash: string }) => activationTokenKey(p.tokenHash),
  keyOnly: ['tokenHash'],
});

export const putActivationPointer = (token: string, pointer: CommunityPointer): TransactItem => ({
  Put: {
    TableName: table(),
    Item: activationPointers.item({ tokenHash: sha256Hex(token), ...pointer }),
  },
});

/** A replaced token no longer finds its community. */
export const deleteActivationPointer = (token: string): TransactItem => ({
  Delete: { TableName: table(), Key: activationTokenKey(sha256Hex(token)) },
});

export async function writeActivationPointer(token: string, pointer: CommunityPointer): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: table(), Item: activationPointers.item({ tokenHash: sha256Hex(token), ...pointer }) }),
  );
}

export async function communityByActivationToken(token: string): Promise<CommunityPointer | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: activationTokenKey(sha256Hex(token)) }));
  const pointer = activationPointers.maybe(Item);
  return pointer ? { userId: pointer.userId, communityId: pointer.communityId } : undefined;
}
