/**
 * Runs a batch of chat events through the engine and stores what came of it. Each member's events
 * are applied in order, in transactions that also mark the events seen, so an event is counted and
 * acted on once however often (or concurrently) it is delivered; a re-delivery gets the first answer.
 */
import { timingSafeEqual } from 'node:crypto';
import { now } from '../../adapters/ports';
import { NotFoundError } from '../../http/errors';
import { uuidv7 } from '../../ids';
import { getCommunityByModerationId, markActivated, type CommunityRecord } from '../../store/communitiesRepo';
import {
  addToMetrics,
  loadMembers,
  metricShardOf,
  putAuditEntry,
  putMemberState,
  putSeenEvent,
  seenEvents,
  type StoredMember,
} from '../../store/moderationRepo';
import { cancellationCodes, writeTogether, type TransactItem } from '../../store/transactions';
import { requireCommunity } from './communities';
import {
  activationDecision,
  addDeltas,
  asActivation,
  emptyMemberState,
  moderateEvent,
  policyOf,
  type ActivationOutcome,
  type ChatEvent,
  type CommunityPolicy,
  type Decision,
  type MetricDelta,
} from './engine';
import { toChatEvents, type TelegramUpdate } from './telegram';

/** Events per transaction: member state + seen marker and audit entry per event + one counter update stays under 100 items. */
const EVENTS_PER_TRANSACTION = 40;
const MAX_ATTEMPTS = 10;

async function activate(community: CommunityRecord, token: string | undefined): Promise<{ community: CommunityRecord; outcome: ActivationOutcome }> {
  if (!community.activationToken) return { community, outcome: 'not_needed' };
  if (!token || !sameSecret(token, community.activationToken)) return { community, outcome: 'token_mismatch' };
  if (community.activatedAt) return { community, outcome: 'already_active' };
  const activated = await markActivated(community, token, now().toISOString());
  return activated ? { community: activated, outcome: 'activated' } : { community, outcome: 'already_active' };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What every member's transactions in one batch share. */
interface Batch {
  communityId: string;
  policy: CommunityPolicy;
  /** Each event's place in the request, to keep audit entries of one millisecond in order. */
  positions: Map<string, number>;
}

const isRetryable = (codes: (string | undefined)[]) => codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict');

/**
 * Applies one member's new events in order. On a lost race (another delivery wrote the member or
 * one of the events first) it reloads and carries on with what is still unseen.
 */
async function applyMemberEvents(batch: Batch, userId: string, events: ChatEvent[], preloaded: StoredMember | undefined): Promise<Map<string, Decision>> {
  const { communityId, policy, positions } = batch;
  const decided = new Map<string, Decision>();
  let member = preloaded;
  let pending = events;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Moderation of member ${userId} in ${communityId} did not settle`);
    if (attempt > 0) {
      const seen = await seenEvents(communityId, pending.map((e) => e.event_id));
      for (const [id, decision] of seen) decided.set(id, decision);
      pending = pending.filter((e) => !seen.has(e.event_id));
      member = (await loadMembers(communityId, [userId])).get(userId);
      if (pending.length === 0) break;
    }
    let stored: StoredMember = member ?? { state: emptyMemberState(), version: 0 };
    while (pending.length > 0) {
      const chunk = pending.slice(0, EVENTS_PER_TRANSACTION);
      const at = now();
      const items: TransactItem[] = [];
      const delta: MetricDelta = {};
      const chunkDecisions: Decision[] = [];
      let state = stored.state;
      for (const event of chunk) {
        const result = moderateEvent(policy, state, event);
        state = result.state;
        chunkDecisions.push(result.decision);
        addDeltas(delta, result.delta);
        items.push(putSeenEvent(communityId, result.decision, at.toISOString()));
        if (result.audit) items.push(putAuditEntry(communityId, { id: uuidv7(at.getTime()), at: at.toISOString(), ...result.audit }, positions.get(event.event_id) ?? 0));
      }
      const lastEventAt = chunk.map((e) => new Date(e.sent_at).toISOString()).sort().at(-1)!;
      items.push(putMemberState(communityId, userId, { state, version: stored.version }, at.toISOString()), addToMetrics(communityId, metricShardOf(userId), delta, lastEventAt));
      try {
        await writeTogether(items);
      } catch (err) {
        if (!isRetryable(cancellationCodes(err))) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * (attempt + 1)));
        break;
      }
      for (const d of chunkDecisions) decided.set(d.event_id, d);
      stored = { state, version: stored.version + 1 };
      member = stored;
      pending = pending.slice(chunk.length);
    }
  }
  return decided;
}

/** Members who share a counter shard go one after another, so a batch never conflicts with itself. */
async function applyByMember(batch: Batch, events: ChatEvent[]): Promise<Map<string, Decision>> {
  const byMember = new Map<string, ChatEvent[]>();
  for (const event of events) byMember.set(event.user.id, [...(byMember.get(event.user.id) ?? []), event]);
  const members = await loadMembers(batch.communityId, [...byMember.keys()]);
  const byShard = new Map<number, string[]>();
  for (const userId of byMember.keys()) byShard.set(metricShardOf(userId), [...(byShard.get(metricShardOf(userId)) ?? []), userId]);
  const decided = new Map<string, Decision>();
  await Promise.all(
    [...byShard.values()].map(async (userIds) => {
      for (const userId of userIds) {
        for (const [id, d] of await applyMemberEvents(batch, userId, byMember.get(userId)!, members.get(userId))) decided.set(id, d);
      }
    }),
  );
  return decided;
}

/** One batch of events for one community; decisions in the order the events came. */
export async function moderateEvents(community: CommunityRecord, incoming: ChatEvent[]): Promise<{ decisions: Decision[] }> {
  const events = incoming.map(asActivation);
  const decided = new Map<string, Decision>();
  let current = community;
  for (const event of events.filter((e) => e.type === 'activation')) {
    const activation = await activate(current, event.token);
    current = activation.community;
    decided.set(event.event_id, activationDecision(event, activation.outcome));
  }
  // The first copy of an id wins; later copies in the same batch are re-deliveries.
  const firstCopies = new Map<string, ChatEvent>();
  for (const e of events) if (e.type !== 'activation' && !firstCopies.has(e.event_id)) firstCopies.set(e.event_id, e);
  const seen = await seenEvents(community.id, [...firstCopies.keys()]);
  for (const [id, decision] of seen) decided.set(id, decision);
  const fresh = [...firstCopies.values()].filter((e) => !seen.has(e.event_id));
  const batch: Batch = { communityId: community.id, policy: policyOf(current), positions: new Map(events.map((e, i) => [e.event_id, i])) };
  for (const [id, decision] of await applyByMember(batch, fresh)) decided.set(id, decision);
  return { decisions: events.map((e) => decided.get(e.event_id)!) };
}

/** POST /communities/{id}/events: the owner's own bot or bridge, with the owner's API key. */
export async function moderateOwnCommunityEvents(userId: string, communityId: string, events: ChatEvent[]) {
  return moderateEvents(await requireCommunity(userId, communityId), events);
}

/**
 * Telegram's webhook: no API key, so the secret header (the activation token Telegram was given with
 * setWebhook) proves the caller. A wrong secret looks exactly like an unknown community.
 */
export async function moderateTelegramUpdate(moderationId: string, secretToken: string | undefined, update: TelegramUpdate) {
  const community = await getCommunityByModerationId(moderationId);
  if (!community || community.type !== 'telegram' || !community.activationToken || !secretToken || !sameSecret(secretToken, community.activationToken)) {
    throw new NotFoundError('Community');
  }
  return moderateEvents(community, toChatEvents(update));
}
