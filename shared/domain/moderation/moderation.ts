/**
 * Runs a batch of chat events through the engine and stores what came of it. Each member's events
 * are applied in order, in transactions that also mark the events seen and move the counters, so an
 * event is counted and acted on once however often (or concurrently) it is delivered; a re-delivery
 * gets the first answer.
 */
import { now } from '#shared/adapters/ports';
import type { MuteHint } from '#shared/platforms/contract';
import { getOrInsertComputed, mustGet } from '#shared/maps';
import { uuidv7 } from '#shared/ids';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import {
  addToMetrics,
  loadMembers,
  metricShardOf,
  putAuditEntry,
  putMemberState,
  putSeenEvent,
  rememberEvent,
  seenEvents,
  type StoredMember,
} from '#shared/store/moderationRepo';
import {
  isTransactionConflict,
  TransactionConditionError,
  writeTogether,
  type TransactItem,
} from '#shared/store/transactions';
import { requireCommunity } from './communityReads';
import { sameSecret } from '#shared/ids';
import { markCommunityActivated } from './activation';
import { spendOnBridge } from './activationToken';
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
import { recordMetric } from '#shared/observability/metrics';
import { getCommunityRules } from './communityRulesReads';
import { ruleSetOf } from './communityRules';
import type { RuleSet } from './rules';
import type { DetectorContext } from './detector/detector';
import { detectorContextFor, sharesSenders } from './detectorContext';
import { confirmSpammer } from '#shared/store/sharedSpamRepo';

const MAX_ATTEMPTS = 10;

async function activate(
  community: CommunityRecord,
  token: string | undefined,
): Promise<{ community: CommunityRecord; outcome: ActivationOutcome }> {
  if (!community.activationToken) return { community, outcome: 'not_needed' };
  if (!token || !sameSecret(token, community.activationToken)) return { community, outcome: 'token_mismatch' };
  if (community.activatedAt) return { community, outcome: 'already_active' };
  // A token another place spent (an alert chat named first is not one) does not activate here.
  if (!(await spendOnBridge(community, token))) return { community, outcome: 'token_mismatch' };
  if (!(await markCommunityActivated(community, token))) return { community, outcome: 'already_active' };
  return { community: (await getCommunity(community.userId, community.id, true)) ?? community, outcome: 'activated' };
}

/** What every member's transactions in one batch share. */
interface Batch {
  communityId: string;
  /** The community type (telegram_group, discord_server, ...), the platform dimension of the metrics. */
  platform: string;
  policy: CommunityPolicy;
  /** The community's rules, as the classifier's rule set. */
  rules: RuleSet;
  /** Its text model, known phishing hosts and spam confirmed elsewhere, read once for the batch. */
  detector: DetectorContext;
  /** Each event's place in the request, to keep audit entries of one millisecond in order. */
  positions: Map<string, number>;
  mutes?: MuteHint;
}

/** Who is muted, from a platform that enforces mutes itself (the contract says how). */
export type { MuteHint };

/** Another delivery took one of the events or moved a member first, or wrote at the same moment. */
const isRetryable = (err: unknown) => err instanceof TransactionConditionError || isTransactionConflict(err);

/** DynamoDB's limit on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

interface Packed {
  /** By kind; any of them may fail when another delivery got there first. */
  items: { seenEvents: TransactItem[]; auditEntries: TransactItem[]; members: TransactItem[]; metrics?: TransactItem };
  decisions: Decision[];
  /** Per member: their state after this transaction and how many of their pending events it took. */
  advanced: Map<string, { member: StoredMember; taken: number }>;
}

/**
 * One transaction's worth of pending events of one counter shard: members one after another, each
 * member's events in order, each event marked seen, each member's state written under a version
 * check, and the shard's counters moved by what the transaction decided.
 */
function packTransaction(
  batch: Batch,
  shard: number,
  pending: Map<string, ChatEvent[]>,
  members: Map<string, StoredMember>,
): Packed {
  const at = now();
  const atIso = at.toISOString();
  const packed: Packed = {
    items: { seenEvents: [], auditEntries: [], members: [] },
    decisions: [],
    advanced: new Map(),
  };
  const { seenEvents: seen, auditEntries: audit, members: memberStates } = packed.items;
  const delta: MetricDelta = {};
  let lastEventAt = '';
  // Room for `extra` more items, keeping one for the counter update.
  const fits = (extra: number) => seen.length + audit.length + memberStates.length + extra + 1 <= MAX_TRANSACTION_ITEMS;
  for (const [userId, events] of pending) {
    // A member needs their state item plus up to two items (seen marker, audit entry) per event.
    if (!fits(1 + 2)) break;
    const before = members.get(userId) ?? { state: emptyMemberState(), version: 0 };
    let state = before.state;
    let taken = 0;
    for (const event of events) {
      if (!fits(2 + 1)) break;
      const muted = batch.mutes?.isMuted(event.user.id, event.sent_at) ?? false;
      const result = moderateEvent(batch.policy, state, event, batch.rules, batch.detector, muted);
      if (result.decision.action === 'mute') batch.mutes?.muted(event.user.id, event.sent_at);
      state = result.state;
      taken += 1;
      packed.decisions.push(result.decision);
      addDeltas(delta, result.delta);
      const sentAt = new Date(event.sent_at).toISOString();
      if (sentAt > lastEventAt) lastEventAt = sentAt;
      seen.push(putSeenEvent(batch.communityId, result.decision, atIso));
      if (result.audit)
        audit.push(
          putAuditEntry(
            batch.communityId,
            { id: uuidv7(at.getTime()), at: atIso, ...result.audit },
            batch.positions.get(event.event_id) ?? 0,
          ),
        );
    }
    memberStates.push(putMemberState(batch.communityId, userId, { state, version: before.version }, atIso));
    packed.advanced.set(userId, { member: { state, version: before.version + 1 }, taken });
  }
  packed.items.metrics = addToMetrics(batch.communityId, shard, delta, lastEventAt);
  return packed;
}

/**
 * Applies the new events of the members of one counter shard, as few transactions as the item
 * limit allows. On a lost race (another delivery wrote a member or one of the events first) it
 * reloads and carries on with what is still unseen.
 */
async function applyShard(
  batch: Batch,
  shard: number,
  eventsByMember: Map<string, ChatEvent[]>,
  preloaded: Map<string, StoredMember>,
): Promise<Map<string, Decision>> {
  const decided = new Map<string, Decision>();
  const pending = new Map(eventsByMember);
  const members = new Map(preloaded);
  for (let attempt = 0; pending.size > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Moderation events of ${batch.communityId} did not settle`);
    if (attempt > 0) {
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      const seen = await seenEvents(
        batch.communityId,
        [...pending.values()].flat().map((e) => e.event_id),
      );
      for (const [id, decision] of seen) decided.set(id, decision);
      for (const [userId, events] of pending) {
        const unseen = events.filter((e) => !seen.has(e.event_id));
        if (unseen.length) pending.set(userId, unseen);
        else pending.delete(userId);
      }
      const reloaded = await loadMembers(batch.communityId, [...pending.keys()]);
      members.clear();
      for (const [userId, member] of reloaded) members.set(userId, member);
    }
    while (pending.size > 0) {
      const packed = packTransaction(batch, shard, pending, members);
      try {
        await writeTogether(packed.items);
      } catch (err) {
        if (!isRetryable(err)) throw err;
        break;
      }
      for (const d of packed.decisions) {
        decided.set(d.event_id, d);
        if (d.action !== 'allow') recordMetric('ModerationActions', 1, { platform: batch.platform, action: d.action });
      }
      for (const [userId, { member, taken }] of packed.advanced) {
        members.set(userId, member);
        const rest = mustGet(pending, userId, 'pending events').slice(taken);
        if (rest.length) pending.set(userId, rest);
        else pending.delete(userId);
      }
    }
  }
  return decided;
}

/** Shards in parallel; within a shard one transaction at a time, so a batch never conflicts with itself. */
async function applyByShard(batch: Batch, events: ChatEvent[]): Promise<Map<string, Decision>> {
  const byShard = new Map<number, Map<string, ChatEvent[]>>();
  for (const event of events) {
    const shard = metricShardOf(event.user.id);
    const members = getOrInsertComputed(byShard, shard, () => new Map());
    members.set(event.user.id, [...(members.get(event.user.id) ?? []), event]);
  }
  const stored = await loadMembers(batch.communityId, [...new Set(events.map((e) => e.user.id))]);
  const decided = new Map<string, Decision>();
  await Promise.all(
    [...byShard].map(async ([shard, members]) => {
      for (const [id, d] of await applyShard(batch, shard, members, stored)) decided.set(id, d);
    }),
  );
  return decided;
}

/**
 * `/activate <token>` typed in the chat is an activation only with this community's own token. Any other
 * text of that form is a message like any other: the single "token" can be a scam link
 * (`/activate https://t.me/+…`), and reading it as a failed activation would let it through unmoderated.
 */
const typedActivation =
  (community: CommunityRecord) =>
  (event: ChatEvent): ChatEvent => {
    const read = asActivation(event);
    if (read === event) return event;
    const own = !!community.activationToken && sameSecret(read.token ?? '', community.activationToken);
    return own ? read : event;
  };

/**
 * A sender this community banned is one its owner confirms as a spammer, for the deployment's other
 * owners (detectorContext.ts counts it only when owners agree). Enforced or observed alike: a ban
 * decided is the owner's judgement either way.
 */
async function confirmBannedSenders(
  community: CommunityRecord,
  events: ChatEvent[],
  decisions: Map<string, Decision>,
): Promise<void> {
  if (!sharesSenders(community.type)) return;
  const banned = new Set(events.filter((e) => decisions.get(e.event_id)?.action === 'ban').map((e) => e.user.id));
  const at = now().getTime();
  await Promise.all([...banned].map((id) => confirmSpammer(community.type, id, community.userId, at)));
}

/** One batch of events for one community; decisions in the order the events came. */
export async function moderateEvents(
  community: CommunityRecord,
  incoming: ChatEvent[],
  options: { mutes?: MuteHint } = {},
): Promise<{ decisions: Decision[] }> {
  const events = incoming.map(typedActivation(community));
  // The first copy of an id wins; later copies in the same batch are re-deliveries.
  const firstCopies = new Map<string, ChatEvent>();
  for (const e of events) if (!firstCopies.has(e.event_id)) firstCopies.set(e.event_id, e);
  const decided = await seenEvents(community.id, [...firstCopies.keys()]);
  const fresh = [...firstCopies.values()].filter((e) => !decided.has(e.event_id));

  // Activation changes the community, so it is settled first and the rest of the batch sees its result.
  let current = community;
  for (const event of fresh.filter((e) => e.type === 'activation')) {
    const activation = await activate(current, event.token);
    current = activation.community;
    const decision = activationDecision(event, activation.outcome);
    await rememberEvent(community.id, decision, now().toISOString());
    decided.set(event.event_id, decision);
  }
  const rules = ruleSetOf(await getCommunityRules(community.id));
  const messages = fresh.filter((e) => e.type === 'message' && e.text);
  const batch: Batch = {
    communityId: community.id,
    platform: current.type,
    policy: policyOf(current),
    rules,
    detector: await detectorContextFor(
      current,
      rules,
      messages.map((e) => e.text ?? ''),
      messages.map((e) => e.user.id),
    ),
    positions: new Map(events.map((e, i) => [e.event_id, i])),
    ...(options.mutes ? { mutes: options.mutes } : {}),
  };
  const judged = fresh.filter((e) => e.type !== 'activation');
  const applied = await applyByShard(batch, judged);
  for (const [id, decision] of applied) decided.set(id, decision);
  await confirmBannedSenders(current, judged, applied);
  return { decisions: events.map((e) => mustGet(decided, e.event_id, 'decision')) };
}

/** POST /communities/{id}/events: the owner's own bot or bridge, with the owner's API key. */
export async function moderateOwnCommunityEvents(userId: string, communityId: string, events: ChatEvent[]) {
  return moderateEvents(await requireCommunity(userId, communityId), events);
}
