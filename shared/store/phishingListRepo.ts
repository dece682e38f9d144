/**
 * The known-phishing-domain list of the deployment: a head item naming the current generation (with
 * the list's version, source, counts and look-alike targets) and that generation's shards. A refresh
 * writes every shard of its generation first and then points the head at it, so a reader that found
 * the head finds its shards; the generation it replaced expires with ttl, after readers that still
 * hold the old head have had time to finish with it.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany, putAll } from './batch';
import { ddb, table, writeIfCondition } from './client';
import { defineEntity } from './entity';
import { phishingListHeadKey, phishingListLeadingKey, phishingListShardKey } from './keys';

export interface PhishingListHead {
  /** Names the shards: a hash of the list's content and shard count, so the same list is the same generation. */
  generation: string;
  shards: number;
  /** The source's own version number (eth-phishing-detect's `version`). */
  version: number;
  /** `package` (the installed eth-phishing-detect copy) or the URL it was downloaded from. */
  source: string;
  fetchedAt: string;
  blockedCount: number;
  allowedCount: number;
  /** Well-known domains phishing imitates (the source's fuzzylist), for look-alike checks. */
  targets: string[];
  /** The edit distance the source counts as a look-alike of a target. */
  tolerance: number;
}

/** The listed (`blocked`) and excepted (`allowed`) domains whose registrable domain falls in this shard. */
export interface PhishingListShard {
  blocked: string[];
  allowed: string[];
}

const heads = defineEntity<PhishingListHead>()({ name: 'phishingListHead', key: () => phishingListHeadKey() });
const shards = defineEntity<PhishingListShard & { generation: string; shard: number }>()({
  name: 'phishingListShard',
  key: (s: { generation: string; shard: number }) => phishingListShardKey(s.generation, s.shard),
});
const leading = defineEntity<{ generation: string; domains: string[] }>()({
  name: 'phishingListLeading',
  key: (l: { generation: string }) => phishingListLeadingKey(l.generation),
});

export async function getPhishingListHead(): Promise<PhishingListHead | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: phishingListHeadKey() }));
  return heads.maybe(Item);
}

/** The shards asked for, by number, in one BatchGetItem (of up to 100 keys a call); a shard not stored is left out. */
export async function getPhishingListShards(
  generation: string,
  numbers: number[],
): Promise<Map<number, PhishingListShard>> {
  const items = await getMany(
    numbers.map((n) => phishingListShardKey(generation, n)),
    { consistent: false },
  );
  return new Map(
    items.map((item) => {
      const { shard, blocked, allowed } = shards.fromItem(item);
      return [shard, { blocked, allowed }];
    }),
  );
}

export async function getPhishingListLeading(generation: string): Promise<string[]> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: phishingListLeadingKey(generation) }));
  return leading.maybe(Item)?.domains ?? [];
}

/**
 * Writes a generation's shards and leading domains (plain overwrites without ttl: writing a generation
 * again, after it was retired, keeps it). Not visible to readers until the head points at it.
 */
export async function putPhishingListGeneration(
  generation: string,
  content: PhishingListShard[],
  leadingDomains: string[],
): Promise<void> {
  await putAll(
    [
      ...content.map((shard, n) => shards.item({ generation, shard: n, ...shard })),
      leading.item({ generation, domains: leadingDomains }),
    ],
    // Shards are a few kilobytes each: a full call of 25 stays far below BatchWriteItem's 16 MB.
    { concurrency: 2 },
  );
}

/**
 * Points the head at a written generation, provided it still names `previous` (undefined: no list
 * yet). False when another refresh moved it meanwhile: its list stands.
 */
export async function putPhishingListHead(head: PhishingListHead, previous: string | undefined): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: heads.item(head),
        ConditionExpression: previous === undefined ? 'attribute_not_exists(pk)' : '#generation = :previous',
        ...(previous === undefined
          ? {}
          : {
              ExpressionAttributeNames: { '#generation': 'generation' },
              ExpressionAttributeValues: { ':previous': previous },
            }),
      }),
    ),
  );
}

/** Lets a replaced generation's items expire at `expiresAt` (epoch seconds); items already gone are skipped. */
export async function retirePhishingListGeneration(
  generation: string,
  shardCount: number,
  expiresAt: number,
): Promise<void> {
  const expire = { set: { ttl: expiresAt }, condition: 'attribute_exists(pk)' } as const;
  const updates = [
    ...Array.from({ length: shardCount }, (_, n) => ({
      Key: phishingListShardKey(generation, n),
      ...shards.update(expire),
    })),
    { Key: phishingListLeadingKey(generation), ...leading.update(expire) },
  ];
  for (let i = 0; i < updates.length; i += 8)
    await Promise.all(
      updates
        .slice(i, i + 8)
        .map((update) => writeIfCondition(() => ddb().send(new UpdateCommand({ TableName: table(), ...update })))),
    );
}
