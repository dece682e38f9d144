/**
 * A stand-in module for a platform whose real module is not merged yet (PLACEHOLDER: each is replaced
 * by its platform's own module). It declares the platform's credential names, so they are read, but
 * is never configured: every action it is given is planned and recorded as `not_configured`, and
 * nothing is sent. It is not a feature; the status says so.
 */
import type { PlatformSetting } from '#shared/config/config';
import type { CommunityType } from './names';
import { DEFAULT_SHARD_SIZE, definePlatform, type Platform } from './contract';

/** Where a placeholder's decision would apply: the member and, when there is one, the item. */
export interface PlaceholderTarget {
  userId: string;
  itemId?: string;
}

export function placeholderPlatform(
  type: CommunityType,
  names: readonly string[],
  apiBase: { env: PlatformSetting; default: string },
): Platform<PlaceholderTarget, Record<string, string | undefined>> {
  const planned = (method: string) => (target: PlaceholderTarget) => [
    { platform: type, method, body: { user_id: target.userId, ...(target.itemId ? { item_id: target.itemId } : {}) } },
  ];
  return definePlatform<PlaceholderTarget, Record<string, string | undefined>>({
    type,
    credentials: { names, apiBase, read: (values) => ({ ...values }), configured: () => false },
    send: async () => 'not_configured',
    // No ingest yet: nothing reaches the engine through this platform until its module lands.
    ingest: {
      kind: 'poll',
      schedule: { shardSize: DEFAULT_SHARD_SIZE, operatorPoll: false },
      poll: async () => undefined,
    },
    onRulesChanged: null,
    onMonitoringChanged: null,
    sync: null,
    decisions: { delete: planned('delete'), warn: planned('warn'), mute: planned('mute'), ban: planned('ban') },
    welcome: null,
    alert: null,
    undo: {
      delete: null,
      warn: null,
      mute: ({ userId }) => [{ platform: type, method: 'unmute', body: { user_id: userId } }],
      ban: ({ userId }) => [{ platform: type, method: 'unban', body: { user_id: userId } }],
    },
    actedIn: null,
    recordFields: { bound: 'boundId', alert: 'alertId' },
    connectLink: null,
    forget: null,
    unsupported: [
      `${type} moderation is not available on this deployment yet: actions are recorded as not_configured.`,
    ],
    work: null,
  });
}
