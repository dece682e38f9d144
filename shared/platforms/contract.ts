/**
 * The platform seam: everything the service knows about one chat platform, in one folder
 * (shared/platforms/<type>/) whose module implements `Platform`, registered in registry.ts under its
 * community type. The engine, the delivery runner, undo, status, credentials and bindings read a
 * platform only through this interface; a platform in turn reaches the moderation core only through
 * the `ModerationCore` it is handed, never by importing it, so no import runs from a platform back
 * into the core that finds it.
 *
 * A piece a platform does not have is `null`, never left out: leaving a piece out does not compile.
 */
import type { PlatformSetting } from '#shared/config/config';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import type { Delivery, PlannedCall } from '#shared/store/platformCallsRepo';
import type { PlaceField, PlatformRecord } from '#shared/store/platformRepo';
import type { PenaltyAction } from '#shared/domain/moderation/actions';
import type { CommunityStatus } from '#shared/domain/moderation/communityTypes';
import type { CommunityRules, RulesMode } from '#shared/domain/moderation/communityRules';
import type { ChatEvent, Decision } from '#shared/domain/moderation/engine';
import type { Rule } from '#shared/domain/moderation/rules';
import type { CommunityType } from './names';
import type { PortOutcome } from './result';

export type { PlaceField, PortOutcome };

/** How long a mute lasts; Telegram treats under 30 s or over 366 days as forever, so this stays well inside. */
export const MUTE_SECONDS = 60 * 60;

/**
 * The operator's credentials of one platform (one set per deployment). `names` are environment
 * variables locally and keys of the platform secret's JSON in AWS; secrets.ts reads the names of
 * every registered platform, so a new platform's names need no list edited anywhere else.
 */
/** The platforms' configuration (API bases, authorize pages, public ids), by variable. */
export type PlatformSettings = Readonly<Record<PlatformSetting, string | undefined>>;

export interface CredentialSpec<C> {
  names: readonly string[];
  /** The API base URL: configuration, not a secret (tests point it at a stand-in); its variable is one of shared/config/config.ts. */
  apiBase: { env: PlatformSetting; default: string };
  /**
   * The module's own view of the values read (blank values arrive as undefined), with the platforms'
   * configuration beside them (config().platforms, handed in by the secrets adapter).
   */
  read(values: Readonly<Record<string, string | undefined>>, apiBase: string, settings: PlatformSettings): C;
  /** False: the platform's actions are recorded as `not_configured`, nothing is sent. */
  configured(credentials: C): boolean;
}

/** What `send` gets beside the call itself. */
export interface SendContext<C> {
  credentials: C;
  /** The community the delivery belongs to (a platform may send with that community's own tokens); undefined for operator calls outside a delivery (an admin check, an AutoMod sync's reads). */
  communityId: string | undefined;
  /**
   * For a timed call (`PlannedCall.timed`): when it ends, resolved by the runner at send time as
   * now + its length, so a late delivery still mutes for the full length and never sends an end in
   * the past (which Telegram reads as forever). A timed call whose time is already over is not sent.
   */
  endsAt: Date | undefined;
  /**
   * The delivery waited before this try (a rate limit, a failure, a lost worker): what a call acts on may
   * have changed since it was planned (a human moderator approved the item), so a module may look first.
   */
  waited: boolean;
}

/** How a platform's events reach the engine. */
export type Ingest =
  /** The platform pushes: the module's own endpoint (route in bin/local and infra) receives it. */
  | { kind: 'webhook'; path: string }
  /**
   * Nothing is pushed: the minute schedule (and POST /sync) calls `poll` for each connected, paid
   * community (polling.ts). A platform whose one request can read many communities (Reddit's
   * `/r/a+b+c/new`) gives `batch` too, called with a shard of them (its `schedule`'s size);
   * `operator` runs once a minute for the whole deployment (Reddit's inbox, where activations arrive).
   */
  | {
      kind: 'poll';
      /** How the minute schedule queues its communities (the folder's schedule.ts, also its row in pollSchedules.ts). */
      schedule: PollSchedule;
      poll: (community: CommunityRecord, cause: PollCause, core: ModerationCore) => Promise<unknown>;
      batch?: (targets: PollTarget[], cause: PollCause, core: ModerationCore) => Promise<unknown>;
      operator?: (cause: PollCause, core: ModerationCore) => Promise<unknown>;
    };

/** Communities per shard of a platform that polls them one by one (each its own requests). */
export const DEFAULT_SHARD_SIZE = 10;

/** How the minute schedule queues a polled platform's communities. */
export interface PollSchedule {
  /** Communities per queued shard. */
  shardSize: number;
  /** The platform also polls once a minute for the whole deployment (its ingest's `operator`: Reddit's inbox, where activations arrive). */
  operatorPoll: boolean;
}

/**
 * Why a poll runs: the minute schedule, or a caller's POST /sync. A platform whose request budget is the
 * whole deployment's (Reddit's) lets a caller's poll spend less of it than the schedule's.
 */
export type PollCause = 'schedule' | 'sync';

/** A community a poll reads, with the place it is bound to (its platform record's bound id). */
export interface PollTarget {
  community: CommunityRecord;
  externalId: string;
}

/**
 * Where an audit entry is undone: the community's platform record (which holds the binding) and the
 * entry's `user_id` and `event_id` (the platform's own ids, as the events carried them).
 */
export interface UndoTarget {
  communityId: string;
  record: PlatformRecord;
  userId: string;
  eventId: string;
  /**
   * The calls the service itself sent for the decision in this community, if it sent any (an entry
   * that came in through the events endpoint has none): proof that the event's item is this community's.
   */
  decision?: Delivery;
  /**
   * Where to lift it: the place the decision's own calls acted in (the module's `actedIn`), else the
   * place the community is bound to on this platform now; undefined when neither is known.
   */
  place: string | undefined;
}

/** Decision texts a platform may show (a warning reply). */
export interface DecisionTexts {
  warning: string;
}

/**
 * One platform. `Target` is where a decision applies on it (chat + message + member on Telegram, a
 * subreddit item on Reddit, ...): built by its own ingest, consumed by its own decision table.
 * `Credentials` is its view of the operator credentials.
 */
export interface Platform<Target, Credentials> {
  type: CommunityType;
  credentials: CredentialSpec<Credentials>;
  /**
   * One stored planned call as an HTTP call through the platform's real client, in its own folder
   * (telegram/botApi.ts, reddit/api.ts, ...). Rate limits MUST come back as `retryAfterSeconds` (the runner
   * postpones exactly that long); `not_configured` when something the call needs is missing.
   */
  send(call: PlannedCall, context: SendContext<Credentials>): Promise<PortOutcome>;
  ingest: Ingest;
  /** A rules change the platform keeps its own copy of (Discord's AutoMod rules); null: the rules are read at each decision. */
  onRulesChanged: ((community: CommunityRecord, record: PlatformRecord, core: ModerationCore) => Promise<void>) | null;
  /**
   * The platform keeps acting by itself on what the service wrote there (Discord's AutoMod rules): told
   * when the community stops or starts being monitored (suspended, expired, paid again) and, with the
   * place it leaves, when it leaves that place for good (deleted, or its type changed), so that nothing
   * written for the community acts there while it is not monitored. A platform holding a grant the community
   * no longer needs once it has expired (an X account's tokens) ends it here. Null: nothing to do.
   */
  onMonitoringChanged:
    | ((
        community: Pick<CommunityRecord, 'userId' | 'id'>,
        record: PlatformRecord,
        core: ModerationCore,
        left?: boolean,
      ) => Promise<void>)
    | null;
  /**
   * What POST /sync does on the platform before answering: `'poll'` polls the community at once, as the
   * schedule would (polling.ts); a function does the platform's own reading (AutoMod executions); null: nothing.
   */
  sync: 'poll' | ((community: CommunityRecord, core: ModerationCore) => Promise<unknown>) | null;
  /**
   * A decision as planned calls, per action (data, like TELEGRAM_DECISION_CALLS). A mute's timed call
   * carries `timed` (see SendContext.endsAt). Null: the platform decides itself (Discord's AutoMod).
   */
  decisions: Record<PenaltyAction, (target: Target, text: DecisionTexts) => PlannedCall[]> | null;
  /** A welcome for a member who joined; null where the platform tells no one about joins. */
  welcome: ((target: Target, text: string) => PlannedCall[]) | null;
  /** An alert to the community's alert place; null where the platform has none (the audit log and webhooks carry it). */
  alert: ((record: PlatformRecord, target: Target | undefined, text: string) => PlannedCall[]) | null;
  /**
   * What lifts each action (planned calls; undefined when nothing is bound to undo it in); null: that
   * action cannot be undone on this platform (a sent warning; a message Telegram deleted).
   */
  undo: Record<PenaltyAction, ((target: UndoTarget) => PlannedCall[] | undefined) | null>;
  /**
   * The place (group, subreddit, website) a decision's own calls acted in, read from the calls, so that
   * an undo lifts it there even after the community moved to another place or platform (undo.ts refuses
   * it once another community holds that place). null where the calls do not say: Discord's actions are
   * AutoMod's, and X's act on the bound account's replies.
   */
  actedIn: ((decision: Delivery) => string | undefined) | null;
  /**
   * Where the platform record keeps the place the community is bound to and its alert place (status
   * shows them as `chat_id` and `alert_chat_id`; binding writes them). New platforms use the generic
   * `boundId`/`alertId`; `alert: null` where alerts have no place of their own.
   */
  recordFields: { bound: PlaceField; alert: PlaceField | null };
  /**
   * A link the owner opens to connect the community, minted per community and shown as its `authorize_url`
   * (X's OAuth authorization; null while the platform is not configured). Null: the community is bound on
   * the platform with its activation token.
   */
  connectLink:
    | ((community: Pick<CommunityRecord, 'id' | 'userId' | 'type'>, apiBaseUrl: string) => Promise<string | null>)
    | null;
  /**
   * What the platform keeps for a community beyond its record (an X account's grant and tokens), let go of
   * when the community leaves the platform: its type changed, or it was deleted (whatever its type is by
   * then: one that was of this type once may still hold it). `stillGone`, asked just before, says the
   * community still needs nothing here (it may have changed back and connected again). Null: nothing kept.
   */
  forget: ((communityId: string, stillGone?: () => Promise<boolean>) => Promise<void>) | null;
  /** What it does not do, stated in the status (`platform.unsupported`) rather than faked. */
  unsupported: readonly string[];
  /** Work it queues for itself (Discord's AutoMod sync); null: none. */
  work: PlatformWork | null;
}

/**
 * Who is muted, from a platform that enforces mutes itself by removing a muted author's items (Reddit):
 * their offences are mutes again, not warnings (actions.ts underMute). `muted` is told of each mute the
 * engine decides, so the author's later items of the same batch see it.
 */
export interface MuteHint {
  isMuted(userId: string, sentAt: string): boolean;
  muted(userId: string, sentAt: string): void;
}

/** A delivery of planned calls, as the core's delivery runner plans it (platformCallRunner.ts). */
export interface DeliveryPlan {
  communityId: string;
  /** The community's owner: a delivery that names it is dropped once the community is deleted. */
  userId?: string;
  deliveryId: string;
  purpose: string;
  auditId?: string;
  eventId?: string;
  /** Where the calls act, when they do not say (Delivery.place). */
  place?: string;
  calls: PlannedCall[];
  /** Recorded, never sent: a decision's delivery says so by the community's mode (scheduleDecision). */
  observe: boolean;
  /** False: the caller runs it itself (undo answers with the platform's verdict). */
  queue?: boolean;
}

/** What an activation token is presented for: the community's moderated place, its alert place, or a bridge's activation event. */
export type TokenUse = { role: 'moderated' | 'alerts'; place: string };

/** What presenting a token did: bound the place, found the place taken by another community, or the token spent elsewhere. */
export type TokenBinding = 'bound' | 'taken' | 'spent';

/**
 * The part of the moderation core that plans deliveries, which a scheduled sweep needs without the
 * engine (the captchas function carries only this: shared/domain/moderation/deliveryCore.ts).
 */
export interface DeliveryCore {
  /** Plans a delivery once (a re-delivered update finds it planned) and queues it, whatever the mode. */
  scheduleDelivery(plan: DeliveryPlan): Promise<boolean>;
  /** A decision's calls planned under the community's mode (observed: recorded, never sent); false when planned before. */
  scheduleDecision(rules: { mode: RulesMode }, plan: Omit<DeliveryPlan, 'observe'>): Promise<boolean>;
  /** The delivery id of the decision on one event (a re-read event finds its delivery planned). */
  decisionDeliveryId(eventId: string): string;
  /** The community's rules, defaults filled in (`consistent`: read after a write that must be seen). */
  rulesOf(communityId: string, consistent?: boolean): Promise<CommunityRules>;
  /** The community's rules only observe: nothing the platform enforces by itself is done either. */
  observes(rules: { mode: RulesMode }): boolean;
  communityStatus(community: CommunityRecord): CommunityStatus;
  /** Epoch ms a suspended community was last paid again (undefined: never suspended, or never paid since). */
  resumedMs(community: Pick<CommunityRecord, 'resumedAt'>): number | undefined;
}

/**
 * The moderation core's services a platform is handed at each call of its hooks and its dispatch (the
 * core builds it once, shared/domain/moderation/platformCore.ts): judging events, planning a decision's
 * delivery under the community's mode, binding with an activation token, queueing the platform's own
 * work, and what a copy of the rules the platform keeps is compiled from (Discord's AutoMod). A platform that needs more of the core asks for it here rather than
 * importing the core.
 */
export interface ModerationCore extends DeliveryCore {
  /** The engine's decisions on one batch of a community's events, in the order of the events. */
  moderateEvents(
    community: CommunityRecord,
    events: ChatEvent[],
    options?: { mutes?: MuteHint },
  ): Promise<{ decisions: Decision[] }>;
  /** One call sent at once with the operator's credentials (the platform port), outside any delivery. */
  callPlatform(call: PlannedCall, context?: { communityId?: string }): Promise<PortOutcome>;
  /** The community of `type` whose own activation token this is, if any. */
  communityOfToken(token: string, type: CommunityType): Promise<CommunityRecord | undefined>;
  /** The token may still do `use`: it is live, or it is what the token already did. */
  tokenMayDo(community: CommunityRecord, use: TokenUse): boolean;
  /** Binds the place with the community's token (spending it on that place). */
  bindWithToken(community: CommunityRecord, token: string, use: TokenUse): Promise<TokenBinding>;
  /** Marks the community activated (bound) and tells its owner: true when this call did, false when it was already (or the token is not its own). */
  markCommunityActivated(community: CommunityRecord, token: string): Promise<boolean>;
  /** The community with an activation token (one from before every type had to be bound gets it now). */
  withActivationToken(community: CommunityRecord): Promise<CommunityRecord>;
  /** Binds the place (not by a token: an OAuth grant names it); `taken` while another community holds it. */
  bindModeratedPlace(community: CommunityRecord, externalId: string): Promise<'bound' | 'taken'>;
  /** Lets go of a place bound for the community (a binding that turned out to be for nothing). */
  releaseModeratedPlace(community: CommunityRecord, externalId: string): Promise<void>;
  /** The community's alert for an action on a member: its own template, else the default. */
  alertText(community: Pick<CommunityRecord, 'alertTemplate'>, action: PenaltyAction, username: string): string;
  /** Queues a platform's own work (its `work`), run by the worker through the registry. */
  queueWork(message: PlatformWorkMessage): Promise<void>;
  /** The built-in rules, whose phrases, patterns and words a copy the platform keeps is compiled from (Discord's AutoMod). */
  builtInRules: readonly Rule[];
  /** The known phishing list's leading domains in its own order, what fits a platform's own keyword filter. */
  leadingPhishingDomains(): Promise<string[]>;
}

/** The queue message of a platform's own work for one community: `kind` names the work (`moderation.<what>`). */
export interface PlatformWorkMessage {
  kind: string;
  user_id: string;
  community_id: string;
}

/** What a sweep that queues lost work again found and did. */
export interface RequeueReport {
  due: number;
  requeued: number;
}

/**
 * Work a platform queues for itself and the worker runs (Discord's AutoMod sync): a request recorded
 * before its message is sent, so a lost message is sent again by the 5-minute sweep.
 */
export interface PlatformWork {
  /** Its queue message's kind (PlatformWorkMessage), unique across the platforms. */
  kind: string;
  /** Runs one message; a RetryLater (shared/platforms/result.ts) sends it again after that wait. */
  run(message: PlatformWorkMessage, core: ModerationCore): Promise<unknown>;
  /** Sends again what is still due (a lost message); `resume`: all still wanted (the local runtime's start, whose queue died). */
  requeue(core: ModerationCore, options?: { resume?: boolean }): Promise<RequeueReport>;
  /** The sweep's name in the renewals function's report, its log line, and what the local runtime says it resumed. */
  sweep: { name: string; log: string; resumed: string };
}

/** Keeps a module's own Target and Credentials types (a plain annotation would widen them). */
export const definePlatform = <Target, Credentials>(
  platform: Platform<Target, Credentials>,
): Platform<Target, Credentials> => platform;

/** The credentials type of a module. */
export type CredentialsOf<P> = P extends { credentials: CredentialSpec<infer C> } ? C : never;

export const blankToUndefined = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
