/**
 * What each moderation outcome becomes on Crisp, as data: the plugin's REST calls (routes under the
 * API base). A block applies to one conversation; a removed message cannot be restored, so only
 * blocks are undone. A mute's block is timed: the runner resolves its end when it is sent (and skips
 * it once the mute would already be over), the platform records that end, and the minute sweep lifts
 * the block then. Nothing here performs a call.
 */
import type { PlannedCall } from '#shared/store/platformCallsRepo';
import type { PenaltyAction } from '#shared/domain/moderation/actions';
import { MUTE_SECONDS } from '#shared/platforms/contract';
import type { CrispMessageTarget, CrispTarget } from './hookEvents';

const conversation = (t: CrispTarget) =>
  `/website/${encodeURIComponent(t.websiteId)}/conversation/${encodeURIComponent(t.sessionId)}`;
const call = (method: string, route: string, body?: Record<string, unknown>): PlannedCall => ({
  platform: 'crisp',
  method,
  route,
  ...(body ? { body } : {}),
});

export const crispDeleteMessage = (t: CrispTarget & { fingerprint: number }) =>
  call('DELETE', `${conversation(t)}/message/${t.fingerprint}`);
/** A message the visitor sees, from the website's side. */
export const crispText = (t: CrispTarget, content: string) =>
  call('POST', `${conversation(t)}/message`, { type: 'text', from: 'operator', origin: 'chat', content });
/** A private note: operators see it in the conversation, the visitor never does. */
export const crispNote = (t: CrispTarget, content: string) =>
  call('POST', `${conversation(t)}/message`, { type: 'note', from: 'operator', origin: 'chat', content });
export const crispBlock = (t: CrispTarget, blocked: boolean) => call('PATCH', `${conversation(t)}/block`, { blocked });

export const CRISP_DECISION_CALLS: Record<
  PenaltyAction,
  (t: CrispMessageTarget, text: { warning: string }) => PlannedCall[]
> = {
  delete: (t) => [crispDeleteMessage(t)],
  warn: (t, text) => [crispText(t, text.warning)],
  mute: (t) => [crispDeleteMessage(t), { ...crispBlock(t, true), timed: { seconds: MUTE_SECONDS, from: t.at } }],
  // Blocked for good: no end is recorded, and a mute's pending lift is dropped.
  ban: (t) => [crispDeleteMessage(t), crispBlock(t, true)],
};

/**
 * Undo and a mute's end lift the conversation's block; a deleted message or a warning cannot be taken
 * back. The lift names the action it takes back: one of a mute is not sent once a ban blocks the
 * conversation (platforms/crisp.ts).
 */
export const crispUnblockCalls = (t: CrispTarget, lifts: 'mute' | 'ban'): PlannedCall[] => [
  { ...crispBlock(t, false), lifts },
];

/** The conversation a block call names (our own routes, built above). */
export function blockedConversation(c: PlannedCall): CrispTarget | undefined {
  const match = /^\/website\/([^/]+)\/conversation\/([^/]+)\/block$/.exec(c.route ?? '');
  return c.method === 'PATCH' && match
    ? { websiteId: decodeURIComponent(match[1]), sessionId: decodeURIComponent(match[2]) }
    : undefined;
}
