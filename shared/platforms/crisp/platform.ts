/**
 * Crisp: the operator's plugin, installed by each website. Hooks are pushed, signed, to one endpoint
 * (hooks.ts); an operator's `/activate <token>` binds the website; each decision becomes
 * the plugin's REST calls (calls.ts) sent with the plugin's token. A block applies to one
 * conversation, so the visitor is the conversation (`user_id` is the session). A mute's block is
 * lifted by the minute sweep (muteEnds.ts) once over: its end is recorded here when the block
 * goes through, so it runs from when it was applied.
 */
import { now } from '#shared/adapters/ports';
import { CrispApi, type CrispMethod } from './api';
import { isTransient, type CallOutcome } from '#shared/platforms/result';
import type { Delivery, PlannedCall } from '#shared/store/platformCallsRepo';
import { crispConversationBanned, dropCrispMute, putCrispBan, putCrispMute } from './mutesRepo';
import { blockedConversation, CRISP_DECISION_CALLS, crispNote, crispText, crispUnblockCalls } from './calls';
import type { CrispMessageTarget } from '../crisp/hookEvents';
import { blankToUndefined, definePlatform, type UndoTarget } from '#shared/platforms/contract';

export interface CrispCredentials {
  pluginId: string | undefined;
  /** The plugin's production token: Basic identifier:key. Unset: Crisp actions are recorded as not_configured. */
  tokenIdentifier: string | undefined;
  tokenKey: string | undefined;
  /** Signs the plugin's hooks; unset, the hook endpoint answers 401 to everyone. */
  hookSecret: string | undefined;
  apiBase: string;
}

export const CRISP_DEFAULT_BASE = 'https://api.crisp.chat/v1';

/** How soon an unblock that met Crisp's own trouble (not a limit, which names its wait) is tried again. */
export const LIFT_RETRY_SECONDS = 5;

/**
 * After a block went through: a mute's end goes into the due index, a ban is kept so that no mute
 * (one whose block landed after it) gets an end; an unblock leaves nothing to lift, but a mute's
 * lift leaves a ban in place.
 */
async function recordBlock(
  call: PlannedCall,
  communityId: string | undefined,
  endsAt: Date | undefined,
): Promise<void> {
  const place = blockedConversation(call);
  if (!place || !communityId) return;
  const conversation = { communityId, websiteId: place.websiteId, sessionId: place.sessionId };
  if (call.body?.blocked !== true) {
    await dropCrispMute(communityId, place.sessionId, call.lifts === 'mute');
    return;
  }
  if (!call.timed) {
    await putCrispBan({ ...conversation, bannedAt: now().toISOString() });
    return;
  }
  // The runner resolves the end at send time; without it (a call sent outside a delivery) it is counted from now.
  const end = endsAt ?? new Date(now().getTime() + call.timed.seconds * 1000);
  await putCrispMute({ ...conversation, endsAt: end.toISOString() });
}

/**
 * A mute's lift (its end, its undo) would also lift a ban applied since, as Crisp knows one block per
 * conversation: refused, with the reason, instead of sent.
 */
async function banOutlivesMute(call: PlannedCall, communityId: string | undefined): Promise<CallOutcome | undefined> {
  const place = blockedConversation(call);
  if (call.lifts !== 'mute' || !place || !communityId) return undefined;
  if (!(await crispConversationBanned(communityId, place.sessionId))) return undefined;
  return {
    ok: false,
    status: 409,
    error: `${call.method} ${call.route}: not sent, the conversation was banned since and stays blocked`,
  };
}

/** A welcome in the visitor's conversation (hooks.ts schedules it on a join). */
export const crispWelcome = (target: CrispMessageTarget, text: string): PlannedCall[] => [crispText(target, text)];

/** Alerts are private notes in the conversation they concern: Crisp has no alert place of its own. */
export const crispAlert = (target: CrispMessageTarget | undefined, text: string): PlannedCall[] =>
  target ? [crispNote(target, text)] : [];

/** The conversation a decision's own block named: the session and the website it was blocked in. */
const blockedBy = (decision: Delivery | undefined) =>
  decision?.calls.map(blockedConversation).find((c) => c !== undefined);

/**
 * The conversation an undo unblocks: the one the decision's own block named, in the website it was
 * blocked in (`place`); an entry a bridge posted names a session of the bound website.
 */
function liftIn({ place, userId, decision }: UndoTarget, lifts: 'mute' | 'ban'): PlannedCall[] | undefined {
  const conversation = blockedBy(decision) ?? (place ? { websiteId: place, sessionId: userId } : undefined);
  return conversation ? crispUnblockCalls(conversation, lifts) : undefined;
}

export const crisp = definePlatform<CrispMessageTarget, CrispCredentials>({
  type: 'crisp',
  credentials: {
    names: ['CRISP_PLUGIN_ID', 'CRISP_TOKEN_IDENTIFIER', 'CRISP_TOKEN_KEY', 'CRISP_HOOK_SECRET'],
    apiBase: { env: 'CRISP_API_BASE', default: CRISP_DEFAULT_BASE },
    read: (values, apiBase) => ({
      pluginId: blankToUndefined(values.CRISP_PLUGIN_ID),
      tokenIdentifier: blankToUndefined(values.CRISP_TOKEN_IDENTIFIER),
      tokenKey: blankToUndefined(values.CRISP_TOKEN_KEY),
      hookSecret: blankToUndefined(values.CRISP_HOOK_SECRET),
      apiBase,
    }),
    configured: (c) => c.tokenIdentifier !== undefined && c.tokenKey !== undefined,
  },
  send: async (call, { credentials: { tokenIdentifier, tokenKey, apiBase }, communityId, endsAt }) => {
    if (tokenIdentifier === undefined || tokenKey === undefined) return 'not_configured';
    const refused = await banOutlivesMute(call, communityId);
    if (refused) return refused;
    const outcome = await new CrispApi(tokenIdentifier, tokenKey, apiBase).request(
      call.method as CrispMethod,
      call.route ?? '/',
      call.body,
    );
    if (outcome.ok) await recordBlock(call, communityId, endsAt);
    // A lift given up would leave the visitor blocked for good (Crisp's block has no end of its own): a
    // passing failure (Crisp's 5xx, the network) is waited out like a limit, however often it recurs.
    if (!outcome.ok && call.lifts && isTransient(outcome) && outcome.retryAfterSeconds === undefined)
      return { ...outcome, retryAfterSeconds: LIFT_RETRY_SECONDS };
    return outcome;
  },
  ingest: { kind: 'webhook', path: '/integrations/moderation/crisp' },
  sync: null,
  // The rules live with us: Crisp keeps no copy to rewrite.
  onRulesChanged: null,
  onMonitoringChanged: null,
  decisions: CRISP_DECISION_CALLS,
  welcome: crispWelcome,
  alert: (_record, target, text) => crispAlert(target, text),
  // A removed message cannot be restored on Crisp and a sent warning stays sent: only blocks are lifted.
  undo: {
    delete: null,
    warn: null,
    mute: (target) => liftIn(target, 'mute'),
    ban: (target) => liftIn(target, 'ban'),
  },
  actedIn: (decision) => blockedBy(decision)?.websiteId,
  recordFields: { bound: 'boundId', alert: null },
  connectLink: null,
  forget: null,
  unsupported: [
    'A block applies to one conversation: Crisp tells a plugin of no visitor identity beyond the session, so a blocked visitor who opens a new session (another browser, cleared cookies) starts unblocked.',
    'A deleted message cannot be restored: undo lifts blocks (mutes and bans) only.',
    "Whitelisted usernames match the visitor's nickname, which the visitor or the website's own script sets.",
    'Only text messages are checked; files, audio and other message types pass unchecked.',
  ],
  work: null,
});
