/**
 * One poll of an X community: the replies to its account since the newest one read, through the
 * engine (observe mode, whitelists, rules, each post acted on once however often it is read again),
 * then each decision planned as X calls. Only a connected community with a paid period is polled:
 * every read is billed to the operator. A banned author's later replies are hidden whatever the
 * engine thinks of them. The cursor moves after each page's decisions are planned, so a poll that
 * dies halfway reads the rest again and the engine answers what it had already decided.
 */
import { mustGet } from '#shared/maps';
import { now } from '#shared/adapters/ports';
import { XApi, type XAnswer, type XPost } from './api';
import { logger } from '#shared/observability/logger';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import { getPlatformRecord, setPollError } from '#shared/store/platformRepo';
import { addBannedXAuthor, bannedXAuthors, getXCursor, putXCursor } from './xRepo';
import type { CommunityRules } from '#shared/domain/moderation/communityRules';
import type { ChatEvent, Decision } from '#shared/domain/moderation/engine';
import type { ModerationCore } from '#shared/platforms/contract';
import { X_DECISION_CALLS, xBannedReplyCalls, type XCall, type XTarget } from './actions';
import { afterPage, repliesToEvents, resumedCursor, searchableCursor, searchRequest, writtenSince } from './replies';
import { runLimited, xEndpointOf } from './send';
import { xCredentials, xSession, XSessionUnavailable } from './tokens';

export interface XPollResult {
  /** Why nothing was read, when nothing was. */
  skipped?: 'not_x' | 'not_connected' | 'not_configured' | 'not_authorized' | 'refused' | 'unreachable';
  pages: number;
  replies: number;
  /**
   * Why X could not be read (the tokens refused or unreachable, a search refused or limited): the
   * cursor stays, the next poll reads on, and the community's status says so meanwhile.
   */
  error?: string;
}

const SEARCH_ENDPOINT = xEndpointOf('GET', '/2/tweets/search/recent');

/** Told to the customer in place of an error of ours (it may name our table or code). */
const UNEXPECTED = 'The poll failed on our side; it is tried again every minute';

/**
 * Polls and records the outcome on the community's platform record (status: connection_state
 * `failing` with the reason, until a poll reads again). A poll with nothing to read (not connected,
 * no X app, nobody authorized) records nothing: the status says those otherwise.
 */
export async function pollXCommunity(community: CommunityRecord, core: ModerationCore): Promise<XPollResult> {
  let result: XPollResult;
  try {
    result = await readReplies(community, core);
  } catch (err) {
    await setPollError(community.id, UNEXPECTED);
    throw err;
  }
  if (result.error !== undefined) await setPollError(community.id, result.error);
  // A read costs less than a write, and almost every poll has no error to clear.
  else if (!result.skipped && (await getPlatformRecord(community.id)).pollError) await setPollError(community.id, null);
  return result;
}

async function readReplies(community: CommunityRecord, core: ModerationCore): Promise<XPollResult> {
  const result: XPollResult = { pages: 0, replies: 0 };
  if (community.type !== 'x') return { ...result, skipped: 'not_x' };
  if (core.communityStatus(community) !== 'connected') return { ...result, skipped: 'not_connected' };
  const client = await xCredentials();
  if (!client.configured) return { ...result, skipped: 'not_configured' };
  try {
    await xSession(community.id);
  } catch (err) {
    if (!(err instanceof XSessionUnavailable)) throw err;
    // Nobody authorized yet is a community bound by a bridge of its own, not a failure to read X.
    return { ...result, skipped: err.reason, ...(err.reason === 'not_authorized' ? {} : { error: err.message }) };
  }
  const api = new XApi(client.apiBase);
  const rules = await core.rulesOf(community.id);
  const banned = await bannedXAuthors(community.id);
  // A quiet account's since_id can be older than recent search's seven days, which X refuses.
  const resumed = core.resumedMs(community);
  const stored = resumedCursor(await getXCursor(community.id), resumed);
  let cursor = searchableCursor(stored, now().getTime());
  for (;;) {
    // The account this page's replies were written to (a new authorization may replace it between pages).
    let searchedAs = '';
    const page = await runLimited(community.id, SEARCH_ENDPOINT, (session) => {
      searchedAs = session.accountId;
      return api.request(session.accessToken, searchRequest(session.username, cursor));
    });
    if (!page.ok) {
      logger.warn('x poll: search failed', { communityId: community.id, status: page.status, error: page.error });
      return { ...result, error: page.error };
    }
    const answer = page.result as XAnswer<XPost[]>;
    result.pages += 1;
    const events = repliesToEvents(answer).filter((e) => writtenSince(e.event_id, resumed));
    result.replies += events.length;
    if (events.length) await actOn(core, community, events, rules, banned, searchedAs);
    const next = afterPage(cursor, answer, result.pages);
    cursor = next.cursor;
    await putXCursor(community.id, cursor);
    if (!next.more) return result;
  }
}

/** The engine's decisions on one page of replies, planned as X calls (observe: recorded, not sent). */
async function actOn(
  core: ModerationCore,
  community: CommunityRecord,
  events: ChatEvent[],
  rules: CommunityRules,
  banned: Set<string>,
  accountId: string,
): Promise<void> {
  const { decisions } = await core.moderateEvents(community, events);
  const authorOf = new Map(events.map((e) => [e.event_id, e.user.id]));
  for (const decision of decisions) {
    const authorId = mustGet(authorOf, decision.event_id, 'author');
    const target: XTarget = { postId: decision.event_id, authorId, accountId };
    const planned = plannedFor(decision, target, banned.has(target.authorId));
    if (planned) {
      await core.scheduleDecision(rules, {
        communityId: community.id,
        userId: community.userId,
        deliveryId: core.decisionDeliveryId(decision.event_id),
        purpose: planned.purpose,
        eventId: decision.event_id,
        calls: planned.calls,
      });
    }
    if (decision.action === 'ban' && !core.observes(rules) && !banned.has(target.authorId)) {
      await addBannedXAuthor(community.id, target.authorId);
      banned.add(target.authorId);
    }
  }
}

function plannedFor(
  decision: Decision,
  target: XTarget,
  authorBanned: boolean,
): { purpose: string; calls: XCall[] } | undefined {
  const calls = decision.action === 'allow' ? [] : X_DECISION_CALLS[decision.action](target);
  if (calls.length) return { purpose: decision.action, calls };
  // A banned author's reply is hidden even when the engine would let it be (or only warn).
  if (authorBanned) return { purpose: 'banned_author', calls: xBannedReplyCalls(target) };
  return undefined;
}
