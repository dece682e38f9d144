/**
 * Providers paused for the whole deployment: after a refused key or a spent quota no worker asks the
 * provider again until the pause ends (its Retry-After when it gave one). The ttl clears old pauses.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { defineEntity } from './entity';
import { providerPauseKey } from './keys';

interface ProviderPause {
  provider: string;
  /** Epoch milliseconds the pause ends at. */
  until: number;
  reason: string;
}

const pauses = defineEntity<ProviderPause>()({
  name: 'providerPause',
  key: (p: Pick<ProviderPause, 'provider'>) => providerPauseKey(p.provider),
});

/** The pause in force at `nowMs`, if any. */
export async function getProviderPause(provider: string, nowMs: number): Promise<ProviderPause | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: pauses.key({ provider }) }));
  const pause = pauses.maybe(Item);
  return pause && pause.until > nowMs ? pause : undefined;
}

export async function pauseProvider(pause: ProviderPause): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: table(), Item: pauses.item(pause, { ttl: Math.ceil(pause.until / 1000) + 3600 }) }),
  );
}
