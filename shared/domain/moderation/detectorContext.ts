/**
 * What one community's judgements need beside its rules, read once for a batch of messages: the text
 * model (built-in starter knowledge plus what the community taught), the known phishing hosts among
 * the messages' links, and which of the messages several owners confirmed as spam.
 */
import { sharedSpamOwners } from '#shared/store/sharedSpamRepo';
import { loadTextModel } from '#shared/store/textModelRepo';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import { spamFingerprint, type DetectorContext } from './detector/detector';
import type { Reading } from './detector/reading';
import { STARTER_MODEL } from './detector/starter';
import { combine } from './detector/textModel';
import type { RuleSet } from './rules';
import { phishingHostsAmong, phishingTargets } from './phishingLists';

/** Owners who must agree before a confirmation counts in another owner's community. */
export const SHARED_SPAM_OWNERS = 2;

/** The starter knowledge combined with each taught version, kept while that version is current. */
const combined = new Map<string, { version: number; model: ReturnType<typeof combine> }>();

async function modelFor(communityId: string) {
  const stored = await loadTextModel(communityId);
  const taught = stored.model.examples[0] + stored.model.examples[1];
  if (stored.version === 0) return { model: STARTER_MODEL, taught };
  const cached = combined.get(communityId);
  if (cached?.version === stored.version) return { model: cached.model, taught };
  const model = combine(STARTER_MODEL, stored.model);
  if (combined.size >= 200) combined.delete(combined.keys().next().value as string);
  combined.set(communityId, { version: stored.version, model });
  return { model, taught };
}

/**
 * Fingerprints confirmed by at least two owners other than this community's own: its own owner's
 * confirmations already teach its own model, and counting them here would let one account reach
 * the threshold alone.
 */
async function knownSpamAmong(readings: Reading[], ownerId: string): Promise<Set<string>> {
  const owners = await sharedSpamOwners(readings.map(spamFingerprint));
  const known = new Set<string>();
  for (const [fingerprint, confirmedBy] of owners) {
    const others = [...confirmedBy].filter((o) => o !== ownerId).length;
    if (others >= SHARED_SPAM_OWNERS) known.add(fingerprint);
  }
  return known;
}

export async function detectorContextFor(
  community: Pick<CommunityRecord, 'id' | 'userId' | 'whitelistedUsernames'>,
  rules: RuleSet,
  readings: Reading[],
): Promise<DetectorContext> {
  const on = (id: string) => rules.detector.enabled.has(id);
  const hosts = [...new Set(readings.flatMap((r) => r.links.map((l) => l.host)))];
  const [taughtModel, knownSpam, phishingHosts, targets] = await Promise.all([
    on('text_model') ? modelFor(community.id) : null,
    on('shared_spam') && readings.length ? knownSpamAmong(readings, community.userId) : new Set<string>(),
    on('phishing') && hosts.length ? phishingHostsAmong(hosts) : new Set<string>(),
    on('phishing') && hosts.length ? phishingTargets() : [],
  ]);
  return {
    phishingHosts,
    phishingTargets: targets,
    knownSpam,
    model: taughtModel?.model ?? null,
    taught: taughtModel?.taught ?? 0,
    adminNames: community.whitelistedUsernames,
  };
}
