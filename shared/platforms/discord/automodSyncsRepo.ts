/**
 * Discord's AutoMod syncs whose queue message may have been lost: fields of the community's platform
 * record and its place in a due index (gsi3), which a sweep reads to send a lost request again.
 */
import { writeIfCondition } from '#shared/store/client';
import { AUTOMOD_SYNC_DUE_PARTITION, automodSyncDueIndexKey, automodSyncDueUpTo } from '#shared/store/keys';
import { queryDueShards } from '#shared/store/query';
import { setOrRemove } from '#shared/store/update';
import {
  platformRecords,
  updatePlatformItem,
  updatePlatformRecord,
  type PlatformRecord,
} from '#shared/store/platformRepo';

/**
 * Records that the community's AutoMod rules are to be written (or, with `leftGuildId`, removed from a
 * guild it left), and when the request counts as lost (`dueAt`).
 */
export async function wantAutomodSync(
  communityId: string,
  owner: string,
  at: string,
  dueAt: string,
  leftGuildId?: string,
): Promise<void> {
  await updatePlatformRecord(communityId, {
    automodWantedAt: at,
    automodOwner: owner,
    ...(leftGuildId ? { automodLeftGuildId: leftGuildId } : {}),
    ...automodSyncDueIndexKey(communityId, dueAt),
  });
}

/**
 * Records a finished sync. It leaves the due index only when no sync was asked for after it began
 * (`startedAt`): a request made meanwhile stays due, so its rules are written too.
 */
export async function recordAutomodSync(
  communityId: string,
  startedAt: string,
  fields: { automodSyncedAt?: string; automodError?: string | null },
): Promise<void> {
  const { set, remove } = setOrRemove<PlatformRecord>(fields);
  const update = (leaveIndex: boolean) =>
    updatePlatformItem(communityId, {
      set: { entity: platformRecords.name, ...set },
      remove: leaveIndex ? [...remove, 'gsi3pk' as const, 'gsi3sk' as const] : remove,
      ...(leaveIndex
        ? {
            condition: {
              expression: 'attribute_not_exists(automodWantedAt) OR automodWantedAt <= :started',
              values: { ':started': startedAt },
            },
          }
        : {}),
    });
  if (!(await writeIfCondition(() => update(true)))) await update(false);
}

export interface DueAutomodSync {
  communityId: string;
  owner: string;
  dueKey: string;
}

export async function listDueAutomodSyncs(atIso: string): Promise<DueAutomodSync[]> {
  const items = await queryDueShards(1, () => AUTOMOD_SYNC_DUE_PARTITION, automodSyncDueUpTo(atIso));
  return items.map((item) => {
    const dueKey = String(item.gsi3sk);
    return { communityId: dueKey.split('#')[1], owner: platformRecords.fromItem(item).automodOwner ?? '', dueKey };
  });
}

/** Moves a due sync to `dueAt` if it is still where it was seen: false when another sweep (or the sync) moved it first. */
export async function claimAutomodSync(communityId: string, seenKey: string, dueAt: string): Promise<boolean> {
  return writeIfCondition(() =>
    updatePlatformItem(communityId, {
      set: { ...automodSyncDueIndexKey(communityId, dueAt) },
      condition: { expression: 'gsi3sk = :seen', values: { ':seen': seenKey } },
    }),
  );
}
