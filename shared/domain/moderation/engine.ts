/**
 * The moderation engine's pure core: one chat event, the community's policy and what is remembered
 * of the sender in; the decision, the sender's new state, the audit entry and the counter changes
 * out. The caller (moderation.ts) loads and stores state; nothing here touches I/O or the clock.
 */
import { actionFor, countsAsOffence, underMute, type ModerationAction, type PenaltyAction } from './actions';
import { fingerprintOf, type RecentMessage } from './classifier';
import { alertTemplateOf, communityStatus, DEFAULT_WELCOME_MESSAGE } from './communityTypes';
import { DEFAULT_RULES, type RuleSet } from './rules';
import { EMPTY_CONTEXT, judge, type DetectorContext } from './detector/detector';
import { displayName, greetingName, renderTemplate } from './templates';
import { cutText } from '#shared/graphemes';

export interface ChatEvent {
  event_id: string;
  type: 'message' | 'member_join' | 'activation';
  user: {
    id: string;
    username?: string;
    /** The member's name as the platform shows it (Telegram's first name): for greetings only, never matched as a username. */
    name?: string;
    role_ids?: string[];
    joined_at?: string;
  };
  text?: string;
  token?: string;
  sent_at: string;
}

/** What the engine remembers of one member of one community. */
export interface MemberState {
  joinedAt: string | null;
  firstSeenAt: string | null;
  recent: RecentMessage[];
  /** Epoch milliseconds of offences still inside the window. */
  offences: number[];
}

export const emptyMemberState = (): MemberState => ({ joinedAt: null, firstSeenAt: null, recent: [], offences: [] });

export interface CommunityPolicy {
  /** Null when the community is monitored; otherwise why not. */
  notMonitored: string | null;
  whitelistedUsernames: Set<string>;
  whitelistedRoleIds: Set<string>;
  /** Null: no welcome messages. */
  welcomeTemplate: string | null;
  alertTemplate: string;
}

export interface PolicySource {
  billingState: 'active' | 'suspended' | 'expired';
  activatedAt: string | null;
  /** Null: connected before every type had to be bound, never bound (communityTypes.isActivated). */
  activationToken?: string | null;
  whitelistedUsernames: string[];
  whitelistedRoleIds: string[];
  shouldSendWelcomeMessages: boolean;
  welcomeMessage: string | null;
  alertTemplate: string | null;
}

const NOT_MONITORED: Record<string, string | null> = {
  connected: null,
  pending_activation: 'The community is not activated yet',
  suspended: 'The community is suspended (renewal unpaid): monitoring is off',
  expired: 'The community has expired: monitoring is off',
};

/** `@name` (Telegram, X) and `u/name` or `/u/name` (Reddit) name the same account as `name`, in any case. */
const normalUsername = (name: string) =>
  name
    .trim()
    .replace(/^(@|\/?u\/)/i, '')
    .toLowerCase();

export function policyOf(c: PolicySource): CommunityPolicy {
  return {
    notMonitored: NOT_MONITORED[communityStatus(c)],
    whitelistedUsernames: new Set(c.whitelistedUsernames.map(normalUsername)),
    whitelistedRoleIds: new Set(c.whitelistedRoleIds),
    welcomeTemplate: c.shouldSendWelcomeMessages ? c.welcomeMessage || DEFAULT_WELCOME_MESSAGE : null,
    alertTemplate: alertTemplateOf(c),
  };
}

/** A signal as decisions and audit entries show it. */
export interface ShownSignal {
  id: string;
  label: string;
}

export interface Decision {
  event_id: string;
  action: ModerationAction;
  rule: string;
  reason: string;
  /** Present for judged messages: how sure the detector is that it is spam, and why. */
  score?: number;
  signals?: ShownSignal[];
  alert?: string;
  welcome_message?: string;
}

export interface AuditDraft {
  event_id: string;
  user_id: string;
  username: string;
  action: PenaltyAction;
  rule: string;
  reason: string;
  message_excerpt: string;
  alert_message: string;
  /** Null where no score was made: Discord AutoMod's own actions, entries from before the detector scored. */
  score: number | null;
  signals: ShownSignal[];
}

export const METRIC_NAMES = [
  'messages_scanned',
  'messages_flagged',
  'delete',
  'warn',
  'mute',
  'ban',
  'members_joined',
  'welcome_messages_sent',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export type MetricDelta = Partial<Record<MetricName, number>>;

export interface Moderated {
  decision: Decision;
  state: MemberState;
  audit?: AuditDraft;
  delta: MetricDelta;
}

const EXCERPT_CHARS = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Why a sender is exempt from moderation (a whitelisted username or role), if they are. */
export function exemption(policy: CommunityPolicy, user: ChatEvent['user']): string | undefined {
  if (user.username && policy.whitelistedUsernames.has(normalUsername(user.username))) return 'whitelisted username';
  if (user.role_ids?.some((r) => policy.whitelistedRoleIds.has(r))) return 'whitelisted role';
  return undefined;
}

function memberJoined(policy: CommunityPolicy, state: MemberState, event: ChatEvent): Moderated {
  const next = {
    ...state,
    joinedAt: event.user.joined_at ?? event.sent_at,
    firstSeenAt: state.firstSeenAt ?? event.sent_at,
  };
  const decision: Decision = {
    event_id: event.event_id,
    action: 'allow',
    rule: 'member_join',
    reason: 'A member joined',
  };
  if (policy.notMonitored || !policy.welcomeTemplate) return { decision, state: next, delta: { members_joined: 1 } };
  decision.welcome_message = renderTemplate(policy.welcomeTemplate, { username: greetingName(event.user) });
  return { decision, state: next, delta: { members_joined: 1, welcome_messages_sent: 1 } };
}

function messageSent(
  policy: CommunityPolicy,
  state: MemberState,
  event: ChatEvent,
  rules: RuleSet,
  context: DetectorContext,
  muted: boolean,
): Moderated {
  const text = event.text ?? '';
  const sentAt = new Date(event.sent_at).getTime();
  const joinedAt = new Date(event.user.joined_at ?? state.joinedAt ?? state.firstSeenAt ?? event.sent_at).getTime();
  const recent = state.recent.filter((m) => sentAt - m.at < rules.memoryWindowSeconds * 1000);
  const offences = state.offences.filter((at) => sentAt - at < rules.offenceWindowHours * 60 * 60 * 1000);
  const next: MemberState = {
    joinedAt: state.joinedAt ?? event.user.joined_at ?? null,
    firstSeenAt: state.firstSeenAt ?? event.sent_at,
    recent: [...recent, { at: sentAt, fingerprint: fingerprintOf(text) }].slice(-50),
    offences,
  };
  const scanned: MetricDelta = { messages_scanned: 1 };
  const allow = (rule: string, reason: string, judged?: Pick<Decision, 'score' | 'signals'>): Moderated => ({
    decision: { event_id: event.event_id, action: 'allow', rule, reason, ...judged },
    state: next,
    delta: scanned,
  });

  if (policy.notMonitored) return allow('not_monitored', policy.notMonitored);
  const judged = judge(
    {
      text,
      sentAt,
      isNewMember: sentAt - joinedAt < rules.newMemberDays * DAY_MS,
      recent,
      senderId: event.user.id,
      username: event.user.username,
      displayName: event.user.name,
    },
    rules,
    context,
  );
  const signals = judged.signals.map(({ id, label }) => ({ id, label }));
  const strongest = signals[0];
  const weight = judged.weight;
  const scored = { score: judged.score, signals };
  if (!weight || !strongest) return allow('none', 'No rule matched', scored);
  const match = { rule: strongest.id, reason: strongest.label };
  const exempt = exemption(policy, event.user);
  if (exempt) return allow('whitelisted', `Exempt sender (${exempt}); would have matched ${match.rule}`, scored);

  const laddered = actionFor(weight, offences.length, rules.warnLimit);
  const action = muted ? underMute(laddered) : laddered;
  if (countsAsOffence(weight)) next.offences = [...offences, sentAt];
  const username = displayName(event.user);
  const alert = renderTemplate(policy.alertTemplate, { action, username });
  return {
    decision: {
      event_id: event.event_id,
      action,
      rule: match.rule,
      reason: match.reason,
      ...scored,
      alert,
    },
    state: next,
    audit: {
      event_id: event.event_id,
      user_id: event.user.id,
      username,
      action,
      rule: match.rule,
      reason: match.reason,
      message_excerpt: cutText(text, EXCERPT_CHARS, '…'),
      alert_message: alert,
      ...scored,
    },
    delta: { ...scanned, messages_flagged: 1, [action]: 1 },
  };
}

/** A message or a join; activation events are settled by the caller (they change the community). */
export function moderateEvent(
  policy: CommunityPolicy,
  state: MemberState,
  event: ChatEvent,
  rules: RuleSet = DEFAULT_RULES,
  context: DetectorContext = EMPTY_CONTEXT,
  /** The author is under a mute the platform enforces by removing their items (MuteHint). */
  muted = false,
): Moderated {
  return event.type === 'member_join'
    ? memberJoined(policy, state, event)
    : messageSent(policy, state, event, rules, context, muted);
}

export type ActivationOutcome = 'activated' | 'already_active' | 'not_needed' | 'token_mismatch';

const ACTIVATION_REASONS: Record<ActivationOutcome, string> = {
  activated: 'Activation token accepted: the community is connected',
  already_active: 'The community was already activated',
  not_needed: 'This community type needs no activation',
  token_mismatch: 'The activation token does not match',
};

export const activationDecision = (event: ChatEvent, outcome: ActivationOutcome): Decision => ({
  event_id: event.event_id,
  action: 'allow',
  rule: 'activation',
  reason: ACTIVATION_REASONS[outcome],
});

/** `/activate <token>` typed in the chat is the same as an activation event. */
export function asActivation(event: ChatEvent): ChatEvent {
  if (event.type !== 'message') return event;
  const command = /^\/activate(?:@\w+)?\s+(\S+)\s*$/.exec(event.text?.trim() ?? '');
  return command ? { ...event, type: 'activation', token: command[1] } : event;
}

export function addDeltas(into: MetricDelta, delta: MetricDelta): MetricDelta {
  for (const [name, value] of Object.entries(delta) as [MetricName, number][]) into[name] = (into[name] ?? 0) + value;
  return into;
}
