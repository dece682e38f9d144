/**
 * The known-phishing-domain list as moderation reads it: from the table (phishingListRepo.ts), where
 * the scheduled refresh (phishingListRefresh.ts) keeps it, never from the package, so the 13,000 domains
 * are not carried in the bundles that moderate. A container keeps the head for a few minutes
 * (PHISHING_LIST_CACHE_SECONDS) and the shards it has read for as long as the head names their
 * generation (a generation's content never changes), so a message costs no read once its shards are in.
 *
 * No public suffix list here (tldts alone is 136 KB of bundle): the refresh, which has it, stores no
 * entry that is a public suffix (`co.uk`, `github.io`), so checking a host's every parent finds exactly
 * what checking its parents down to its registrable domain would.
 */
import { config } from '#shared/config/config';
import { logger } from '#shared/observability/logger';
import { phishingListShardOf } from '#shared/store/keys';
import {
  getPhishingListHead,
  getPhishingListLeading,
  getPhishingListShards,
  type PhishingListHead,
} from '#shared/store/phishingListRepo';

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** The host and each parent of it with two labels or more, most specific first; an address alone. */
export function hostAndParents(host: string): string[] {
  if (IPV4.test(host)) return [host];
  const out = [host];
  for (let at = host.indexOf('.'); at >= 0 && host.indexOf('.', at + 1) >= 0; at = host.indexOf('.', at + 1))
    out.push(host.slice(at + 1));
  return out;
}

/** A host as the list writes domains: lower case, no trailing dot. */
export const normalizedHost = (host: string): string => host.trim().toLowerCase().replace(/\.$/, '');

interface ShardSets {
  blocked: ReadonlySet<string>;
  allowed: ReadonlySet<string>;
}

interface ListState {
  head: PhishingListHead | undefined;
  readAt: number;
  shards: Map<number, ShardSets>;
}

let state: ListState | undefined;

/** The head as last read, read again once the cache period is over (the shards of an unchanged generation are kept). */
async function currentList(): Promise<ListState> {
  const periodMs = config().phishingList.cacheSeconds * 1000;
  if (state && Date.now() - state.readAt < periodMs) return state;
  const head = await getPhishingListHead();
  const shards = state && state.head?.generation === head?.generation ? state.shards : new Map<number, ShardSets>();
  state = { head, readAt: Date.now(), shards };
  return state;
}

/** Forgets what this container read of the list (tests that write one and read it at once). */
export function forgetPhishingList(): void {
  state = undefined;
}

/**
 * The hosts (lower-case hostnames found in messages) that are on the list: a host counts when it or a
 * parent down to its registrable domain is listed and neither it nor such a parent is excepted by the
 * list's whitelist (`www.evil.example.co.uk` is caught by `evil.example.co.uk`). No list, or a list that cannot be read, finds nothing: moderation goes on without it.
 */
export async function phishingHostsAmong(hosts: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (hosts.length === 0) return found;
  try {
    const list = await currentList();
    const { head } = list;
    if (!head) return found;
    const checks = hosts.map((host) => {
      const candidates = hostAndParents(normalizedHost(host)).map((domain) => ({
        domain,
        shard: phishingListShardOf(domain, head.shards),
      }));
      return { host, candidates };
    });
    const wanted = new Set(checks.flatMap((c) => c.candidates.map((d) => d.shard)));
    const missing = [...wanted].filter((n) => !list.shards.has(n));
    if (missing.length > 0) {
      const read = await getPhishingListShards(head.generation, missing);
      for (const n of missing) {
        const shard = read.get(n);
        list.shards.set(n, { blocked: new Set(shard?.blocked), allowed: new Set(shard?.allowed) });
      }
    }
    const listedIn = (kind: keyof ShardSets, { domain, shard }: { domain: string; shard: number }) =>
      list.shards.get(shard)?.[kind].has(domain) === true;
    for (const { host, candidates } of checks)
      if (candidates.some((c) => listedIn('blocked', c)) && !candidates.some((c) => listedIn('allowed', c)))
        found.add(host);
    return found;
  } catch (error) {
    logger.warn('phishing list not read; messages are judged without it', { error: error as Error });
    return found;
  }
}

/** The well-known domains phishing imitates (the list's fuzzylist), for look-alike checks; empty without a list. */
export async function phishingTargets(): Promise<string[]> {
  try {
    return (await currentList()).head?.targets ?? [];
  } catch (error) {
    logger.warn('phishing list not read; no look-alike targets', { error: error as Error });
    return [];
  }
}

/**
 * The list's leading domains in the source's own order, each the broadest listed form of itself, none
 * a part of an excepted or target domain: what fits a platform's own keyword filter (Discord's AutoMod).
 */
export async function leadingPhishingDomains(): Promise<string[]> {
  const { head } = await currentList();
  return head ? getPhishingListLeading(head.generation) : [];
}
