/**
 * What one community's judgements need beside its rules, read once for a batch of messages: the text
 * model (built-in starter knowledge plus what the community taught), the known phishing hosts among
 * the messages' links, and which of the messages several owners confirmed as spam.
 */
import { sharedSpamOwners, spammerOwners } from '#shared/store/sharedSpamRepo';
import { loadTextModel } from '#shared/store/textModelRepo';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import { spamFingerprint, type DetectorContext } from './detector/detector';
import { readMessage, type Reading } from './detector/reading';
import { starterModel } from './detector/starter';
import { combine } from './detector/textModel';
import type { RuleSet } from './rules';
import type { CommunityType } from '#shared/platforms/names';
import { phishingHostsAmong, phishingTargets } from './phishingLists';

/** Owners who must agree before a confirmation counts in another owner's community. */
export const SHARED_SPAM_OWNERS = 2;

/**
 * By platform: its account ids name one account everywhere, so a ban in one community says something
 * in another. Keyed by the closed list of types, so a new platform does not compile without its answer.
 */
const SHARED_SENDERS: Readonly<Record<CommunityType, boolean>> = {
  telegram: true,
  discord: false,
  reddit: true,
  x: true,
  crisp: false,
};

// An own-property check: a stored type is only ever one of the closed list, but a lookup must not reach the prototype.
export const sharesSenders = (type: CommunityType): boolean =>
  Object.hasOwn(SHARED_SENDERS, type) && SHARED_SENDERS[type];

/** The starter knowledge combined with each taught version, kept while that version is current. */
const combined = new Map<string, { version: number; model: ReturnType<typeof combine> }>();

async function modelFor(communityId: string) {
  const stored = await loadTextModel(communityId);
  const taught = stored.model.examples[0] + stored.model.examples[1];
  if (stored.version === 0) return { model: starterModel(), taught };
  const cached = combined.get(communityId);
  if (cached?.version === stored.version) return { model: cached.model, taught };
  const model = combine(starterModel(), stored.model);
  if (combined.size >= 200) combined.delete(combined.keys().next().value as string);
  combined.set(communityId, { version: stored.version, model });
  return { model, taught };
}

/**
 * The ids (fingerprints, accounts) confirmed by at least two owners other than this community's own:
 * its own owner's confirmations already count in its own community, and counting them here would let
 * one account reach the threshold alone.
 */
function agreed(owners: Map<string, Set<string>>, ownerId: string): Set<string> {
  const known = new Set<string>();
  for (const [id, confirmedBy] of owners)
    if ([...confirmedBy].filter((o) => o !== ownerId).length >= SHARED_SPAM_OWNERS) known.add(id);
  return known;
}

async function knownSpamAmong(readings: Reading[], ownerId: string): Promise<Set<string>> {
  return agreed(await sharedSpamOwners(readings.map(spamFingerprint)), ownerId);
}

/** The context for judging `texts` (read here, once each) sent by `senderIds`. */
export async function detectorContextFor(
  community: Pick<CommunityRecord, 'id' | 'userId' | 'type' | 'whitelistedUsernames'>,
  rules: RuleSet,
  texts: string[],
  senderIds: string[] = [],
): Promise<DetectorContext> {
  const byText = new Map(texts.map((text) => [text, readMessage(text)]));
  const readings = [...byText.values()];
  const on = (id: string) => rules.detector.enabled.has(id);
  const hosts = [...new Set(readings.flatMap((r) => r.links.map((l) => l.host)))];
  const senders = sharesSenders(community.type) ? [...new Set(senderIds)] : [];
  const [taughtModel, knownSpam, phishingHosts, targets, spammers] = await Promise.all([
    on('text_model') ? modelFor(community.id) : null,
    on('shared_spam') && readings.length ? knownSpamAmong(readings, community.userId) : new Set<string>(),
    on('phishing') && hosts.length ? phishingHostsAmong(hosts) : new Set<string>(),
    on('phishing') && hosts.length ? phishingTargets() : [],
    on('shared_spam') && senders.length ? spammerOwners(community.type, senders) : new Map<string, Set<string>>(),
  ]);
  return {
    readings: byText,
    phishingHosts,
    phishingTargets: targets,
    knownSpam,
    knownSpammers: agreed(spammers, community.userId),
    model: taughtModel?.model ?? null,
    taught: taughtModel?.taught ?? 0,
    adminNames: community.whitelistedUsernames,
  };
}
