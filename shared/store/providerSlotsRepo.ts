/**
 * A provider's call slots, shared by every worker of the deployment: a worker holds one while it has
 * a call open to the provider, so no more calls than the provider's slots are open at once anywhere.
 * A slot is taken with a conditional write (free, or its holder's lease has run out: a worker that
 * died does not keep it) and given back by its holder; the ttl clears slots nobody uses.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from './client';
import { defineEntity } from './entity';
import { providerSlotKey } from './keys';

interface ProviderSlot {
  provider: string;
  slot: number;
  holder: string;
  /** Epoch milliseconds after which the slot counts as free again. */
  heldUntil: number;
}

const slots = defineEntity<ProviderSlot>()({
  name: 'providerSlot',
  key: (s: Pick<ProviderSlot, 'provider' | 'slot'>) => providerSlotKey(s.provider, s.slot),
});

/** Takes slot `slot` of `provider` for `holder` until `heldUntil`, if it is free or its lease ran out at `nowMs`. */
export function takeProviderSlot(
  provider: string,
  slot: number,
  holder: string,
  nowMs: number,
  heldUntil: number,
): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: slots.key({ provider, slot }),
        ...slots.update({
          set: { entity: 'providerSlot', provider, slot, holder, heldUntil, ttl: Math.ceil(heldUntil / 1000) + 3600 },
          condition: {
            expression: 'attribute_not_exists(heldUntil) OR heldUntil < :now',
            values: { ':now': nowMs },
          },
        }),
      }),
    ),
  );
}

/** Gives the slot back, if `holder` still holds it. */
export async function releaseProviderSlot(provider: string, slot: number, holder: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: slots.key({ provider, slot }),
        ...slots.update({
          remove: ['heldUntil', 'holder'],
          condition: { expression: 'holder = :holder', values: { ':holder': holder } },
        }),
      }),
    ),
  );
}
