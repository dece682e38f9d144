/**
 * Keeps the deployment's known-phishing-domain list in the table: the scheduled refresh downloads the
 * public source (PHISHING_LIST_URL) and writes it when it passes the checks of phishingListSource.ts;
 * where there is no list yet and no good download, the installed package's copy is written instead.
 * A list is written as a new generation of shards, then the head is pointed at it, then the replaced
 * generation is left to expire: a reader sees the old list or the new one, never half of either.
 */
import { createHash } from 'node:crypto';
import { now } from '#shared/adapters/ports';
import { config } from '#shared/config/config';
import { PHISHING_LIST_SHARDS, phishingListShardOf } from '#shared/store/keys';
import {
  getPhishingListHead,
  type PhishingListHead,
  type PhishingListShard,
  putPhishingListGeneration,
  putPhishingListHead,
  retirePhishingListGeneration,
} from '#shared/store/phishingListRepo';
import { PACKAGE_SOURCE, packagePhishingList } from './phishingListPackage';
import { hostAndParents } from './phishingLists';
import { acceptableSize, downloadPhishingList, type PhishingListContent } from './phishingListSource';

/** How long a replaced generation stays readable: far longer than any container keeps a head. */
const RETIRED_GENERATION_SECONDS = 24 * 3600;
/** How many of the list's first domains are kept in order for platforms' own keyword filters (AutoMod takes 1,000). */
export const LEADING_DOMAINS = 2_000;

export interface RefreshReport {
  /** written: the list in the table is now this one (`changed` false when it already was). kept: the list in use stays. */
  outcome: 'written' | 'kept';
  source: string;
  changed: boolean;
  blocked: number;
  /** Why the download was not used, when it was not. */
  reason?: string;
}

/**
 * The first domains of the list in its own order, each only in its broadest listed form, and none that
 * a substring filter would find inside an excepted or target domain (a keyword `*swap.org*` would
 * block `uniswap.org`).
 */
function leadingDomains(list: PhishingListContent): string[] {
  const blocked = new Set(list.blocked);
  const allowed = new Set(list.allowed);
  const protectedDomains = [...list.allowed, ...list.targets];
  const out: string[] = [];
  for (const domain of list.blocked) {
    if (out.length >= LEADING_DOMAINS) break;
    const [, ...parents] = hostAndParents(domain);
    if (parents.some((p) => blocked.has(p))) continue;
    if (hostAndParents(domain).some((d) => allowed.has(d))) continue;
    if (protectedDomains.some((p) => p.includes(domain))) continue;
    out.push(domain);
  }
  return out;
}

function shardsOf(list: PhishingListContent, count: number): PhishingListShard[] {
  const shards = Array.from({ length: count }, (): PhishingListShard => ({ blocked: [], allowed: [] }));
  for (const domain of list.blocked) shards[phishingListShardOf(domain, count)].blocked.push(domain);
  for (const domain of list.allowed) shards[phishingListShardOf(domain, count)].allowed.push(domain);
  for (const shard of shards) {
    shard.blocked.sort();
    shard.allowed.sort();
  }
  return shards;
}

/**
 * Writes a checked list as the current one, replacing `previous` (the head read before; undefined: none
 * yet). `written` is false when another refresh replaced the head meanwhile (its list stands, ours expires).
 */
export async function writePhishingList(
  list: PhishingListContent,
  source: string,
  previous: PhishingListHead | undefined,
): Promise<{ written: boolean; generation: string }> {
  const shards = shardsOf(list, PHISHING_LIST_SHARDS);
  const leading = leadingDomains(list);
  const generation = createHash('sha256')
    .update(JSON.stringify({ shards, leading, targets: list.targets, tolerance: list.tolerance }))
    .digest('hex')
    .slice(0, 16);
  // Written again even when the generation is the current one: a generation retired by a refresh
  // that lost a race is made permanent again, rather than left to expire under the head.
  await putPhishingListGeneration(generation, shards, leading);
  const head: PhishingListHead = {
    generation,
    shards: PHISHING_LIST_SHARDS,
    version: list.version,
    source,
    fetchedAt: now().toISOString(),
    blockedCount: list.blocked.length,
    allowedCount: list.allowed.length,
    targets: list.targets,
    tolerance: list.tolerance,
  };
  const expiresAt = Math.floor(now().getTime() / 1000) + RETIRED_GENERATION_SECONDS;
  if (!(await putPhishingListHead(head, previous?.generation))) {
    const standing = await getPhishingListHead();
    if (standing?.generation !== generation)
      await retirePhishingListGeneration(generation, PHISHING_LIST_SHARDS, expiresAt);
    return { written: false, generation };
  }
  if (previous && previous.generation !== generation)
    await retirePhishingListGeneration(previous.generation, previous.shards, expiresAt);
  return { written: true, generation };
}

/** The local seed: the package's copy, written when the table has no list (a list already there, older or newer, stays). */
export async function seedPhishingList(): Promise<boolean> {
  if (await getPhishingListHead()) return false;
  return (await writePhishingList(packagePhishingList(), PACKAGE_SOURCE, undefined)).written;
}

/**
 * The scheduled refresh: downloads the list from `url` (PHISHING_LIST_URL by default) and writes it
 * when it is a list of a sensible size. A failed or refused download keeps the list in use; with no
 * list in the table it writes the package's copy, so moderation never runs without one for long.
 */
export async function refreshPhishingList(options: { url?: string; minBlocked?: number } = {}): Promise<RefreshReport> {
  const url = options.url ?? config().phishingList.url;
  const current = await getPhishingListHead();
  let reason: string;
  try {
    const list = await downloadPhishingList(url);
    const refused = acceptableSize(list, current?.blockedCount, options.minBlocked);
    if (refused === undefined) {
      const { written, generation } = await writePhishingList(list, url, current);
      if (written)
        return {
          outcome: 'written',
          source: url,
          changed: generation !== current?.generation,
          blocked: list.blocked.length,
        };
      const standing = await getPhishingListHead();
      return {
        outcome: 'kept',
        source: standing?.source ?? url,
        changed: false,
        blocked: standing?.blockedCount ?? 0,
        reason: 'another refresh wrote the list meanwhile',
      };
    }
    reason = `download refused: ${refused}`;
  } catch (err) {
    reason = (err as Error).message;
  }
  if (current)
    return { outcome: 'kept', source: current.source, changed: false, blocked: current.blockedCount, reason };
  const fallback = packagePhishingList();
  await writePhishingList(fallback, PACKAGE_SOURCE, undefined);
  return { outcome: 'written', source: PACKAGE_SOURCE, changed: true, blocked: fallback.blocked.length, reason };
}
