/**
 * The operator's Crisp plugin: every website that installed it sends its hooks to one endpoint
 * (signature checked before this runs). An operator's `/activate <token>` binds the website to a
 * community; in a bound website each visitor message runs through the engine and each decision
 * becomes the plugin's REST calls (calls.ts), planned once per event id (a re-delivered hook
 * plans nothing new) and sent through the queue. Alerts are private notes in the conversation.
 */
import { now } from '#shared/adapters/ports';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { claimCrispRefusalNote } from '#shared/platforms/crisp/refusalNotesRepo';
import { boundCommunity } from '#shared/store/bindingsRepo';
import type { PlannedCall } from '#shared/store/platformCallsRepo';
import type { CommunityRules } from '#shared/domain/moderation/communityRules';
import type { ChatEvent, Decision } from '#shared/domain/moderation/engine';
import type { DeliveryCore, ModerationCore } from '#shared/platforms/contract';
import { UNPAID_ACTIVATION } from '#shared/platforms/unpaidActivation';
import { crispAlert, crispWelcome } from './platform';
import { CRISP_DECISION_CALLS, crispNote } from './calls';
import {
  crispJoinEventId,
  readCrispHook,
  type CrispHook,
  type CrispMessageTarget,
} from '#shared/platforms/crisp/hookEvents';

const alertDeliveryId = (eventId: string) => `alert:${eventId}`;

export const CRISP_REPLIES = {
  invalid_token:
    'This activation token is not valid for a Crisp community (or was used already: its owner can issue a fresh one).',
  taken:
    'This Crisp website is already moderated by another community, and stays with it: that community must be deleted before this website can be activated for another one.',
  activated: 'Moderation is on for this website: visitor messages are checked from now on.',
  suspended: UNPAID_ACTIVATION.suspended('This website'),
  expired: UNPAID_ACTIVATION.expired,
} as const;

export async function handleCrispHook(hook: CrispHook, core: ModerationCore): Promise<{ ok: true }> {
  const meaning = readCrispHook(hook, now().getTime());
  if (meaning.kind === 'activate') await activateWebsite(core, meaning.target, meaning.token);
  if (meaning.kind === 'visitor_message') await moderateVisitorMessage(core, meaning.target, meaning.events);
  return { ok: true };
}

/** `owner.userId`: the calls are dropped if the community is deleted before they go out. */
const schedule = (
  core: DeliveryCore,
  owner: { id: string; userId?: string },
  deliveryId: string,
  purpose: string,
  calls: PlannedCall[],
  /** The rules a decision was made under; none for a reply to a command (sent whatever the mode). */
  rules?: CommunityRules,
  eventId?: string,
) => {
  const plan = {
    communityId: owner.id,
    ...(owner.userId ? { userId: owner.userId } : {}),
    deliveryId,
    purpose,
    ...(eventId ? { eventId } : {}),
    calls,
  };
  return rules ? core.scheduleDecision(rules, plan) : core.scheduleDelivery({ ...plan, observe: false });
};

/** At most one note refusing a token per website in this many seconds (each note spends the shared quota). */
export const REFUSAL_NOTE_INTERVAL_SECONDS = 600;

/** Operators only (the hook says so): the reply is a private note, which the visitor never sees. */
async function activateWebsite(core: ModerationCore, target: CrispMessageTarget, token: string): Promise<void> {
  const community = await core.communityOfToken(token, 'crisp');
  const use = { role: 'moderated', place: target.websiteId } as const;
  const commandId = `cmd:${target.websiteId}:${target.sessionId}:${target.fingerprint}`;
  const reply = (key: keyof typeof CRISP_REPLIES) =>
    schedule(core, { id: community?.id ?? 'unbound' }, commandId, `command_${key}`, [
      crispNote(target, CRISP_REPLIES[key]),
    ]);
  // A token spent on another website reads like an unknown one.
  if (!community || !core.tokenMayDo(community, use)) {
    // A typo is told at once; a website sending tokens over and over is not answered each time.
    if (await claimCrispRefusalNote(target.websiteId, now(), REFUSAL_NOTE_INTERVAL_SECONDS))
      await reply('invalid_token');
    return;
  }
  // An expired community can never moderate again: it takes no website (one it held is free for others).
  if (community.billingState === 'expired') {
    await reply('expired');
    return;
  }
  // No silent takeover: a website stays with the community that bound it while that one lives.
  const bound = await core.bindWithToken(community, token, use);
  if (bound !== 'bound') {
    await reply(bound === 'taken' ? 'taken' : 'invalid_token');
    return;
  }
  if (!community.activatedAt) await core.markCommunityActivated(community, token);
  // Bound either way; a suspended community says it does not moderate yet rather than that it does.
  await reply(community.billingState === 'suspended' ? 'suspended' : 'activated');
}

const warningText = (decision: Decision) => `⚠️ ${decision.reason}. Please keep to this website's chat rules.`;

async function moderateVisitorMessage(
  core: ModerationCore,
  target: CrispMessageTarget,
  events: ChatEvent[],
): Promise<void> {
  const binding = await boundCommunity('crisp', target.websiteId);
  if (binding?.role !== 'moderated') return;
  const community = await getCommunity(binding.userId, binding.communityId);
  // A community that is no longer a Crisp one does not moderate here (a binding left from before its type changed).
  if (community?.type !== 'crisp') return;
  const { decisions } = await core.moderateEvents(community, events);
  const rules = await core.rulesOf(community.id);
  const joinId = crispJoinEventId(target);
  const join = decisions.find((d) => d.event_id === joinId);
  const message = decisions.find((d) => d.event_id !== joinId);
  if (message && message.action !== 'allow') await decided(core, community, message, target, rules);
  // A conversation blocked by its first message is not welcomed.
  const blocked = message?.action === 'mute' || message?.action === 'ban';
  if (join?.welcome_message && core.communityStatus(community) === 'connected' && !blocked) {
    await schedule(
      core,
      community,
      core.decisionDeliveryId(joinId),
      'welcome',
      crispWelcome(target, join.welcome_message),
      rules,
      joinId,
    );
  }
}

async function decided(
  core: DeliveryCore,
  community: CommunityRecord,
  decision: Decision,
  target: CrispMessageTarget,
  rules: CommunityRules,
): Promise<void> {
  if (decision.action === 'allow') return;
  await schedule(
    core,
    community,
    core.decisionDeliveryId(decision.event_id),
    decision.action,
    CRISP_DECISION_CALLS[decision.action](target, { warning: warningText(decision) }),
    rules,
    decision.event_id,
  );
  if (decision.alert)
    await schedule(
      core,
      community,
      alertDeliveryId(decision.event_id),
      'alert',
      crispAlert(target, decision.alert),
      rules,
      decision.event_id,
    );
}
