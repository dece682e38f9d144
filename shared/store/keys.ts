/**
 * Every key of the single table is built here and nowhere else. Each builder names the access
 * pattern it serves. Index use:
 *   gsi1: per-user listings ordered by something other than creation (chats by updated_at).
 *         On webhook deliveries, a user's deliveries of one status (the delivery log's status filter).
 *   gsi2: on webhook deliveries, a user's deliveries of one endpoint and one status (the endpoint filter).
 *   gsi3: sparse indexes under partitions of their own: the renewals' due index, the job watchdog's
 *         in-flight index, growth runs to start, platform deliveries and AutoMod syncs
 *         due, captchas by deadline, Crisp mute ends, the webhook outbox and webhook deliveries due (see their sections).
 *         Polled platforms (Reddit, X) list their bound communities in a partition per platform (POLLED#...).
 */
export interface Key {
  pk: string;
  sk: string;
}

const user = (userId: string) => `USER#${userId}`;

// ---- Accounts and authentication -------------------------------------------------------------
export const userProfileKey = (userId: string): Key => ({ pk: user(userId), sk: 'PROFILE' });
export const apiKeyKey = (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'KEY' });
/** Uniqueness guard: one item per lower-cased e-mail address. */
export const emailKey = (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });
export const referralCodeKey = (code: string): Key => ({ pk: `REFERRAL#${code}`, sk: 'REFERRAL' });

// ---- Credits ----------------------------------------------------------------------------------
export const walletKey = (userId: string): Key => ({ pk: user(userId), sk: 'WALLET' });
export const LEDGER_PREFIX = 'LEDGER#';
export const ledgerEntryKey = (userId: string, createdAt: string, chargeId: string): Key => ({
  pk: user(userId),
  sk: `${LEDGER_PREFIX}${createdAt}#${chargeId}`,
});
/** Ledger entries from `fromIso` (inclusive) to `toIso` (exclusive), for a Query BETWEEN. */
export const ledgerRange = (userId: string, fromIso: string, toIso: string) => ({
  pk: user(userId),
  from: `${LEDGER_PREFIX}${fromIso}`,
  to: `${LEDGER_PREFIX}${toIso}`,
});
/** Guard written with each charge so a retried charge with the same id is applied once. */
export const chargeGuardKey = (userId: string, chargeId: string): Key => ({
  pk: user(userId),
  sk: `CHARGE#${chargeId}`,
});
export const reservationKey = (userId: string, reservationId: string): Key => ({
  pk: user(userId),
  sk: `RESERVATION#${reservationId}`,
});

// ---- Idempotency-Key --------------------------------------------------------------------------
export const idempotencyKey = (userId: string, key: string): Key => ({
  pk: `IDEMPOTENCY#${userId}#${key}`,
  sk: 'IDEMPOTENCY',
});

// ---- Payments ---------------------------------------------------------------------------------
export const paymentEventKey = (eventId: string): Key => ({ pk: `PAYMENTEVENT#${eventId}`, sk: 'EVENT' });
export const subscriptionOwnerKey = (subscriptionId: string): Key => ({ pk: `STRIPESUB#${subscriptionId}`, sk: 'SUB' });
export const checkoutSessionKey = (sessionId: string): Key => ({ pk: `CHECKOUT#${sessionId}`, sk: 'SESSION' });

// ---- Chats ------------------------------------------------------------------------------------
export const CHAT_PREFIX = 'CHAT#';
export const chatKey = (userId: string, chatId: string): Key => ({ pk: user(userId), sk: `${CHAT_PREFIX}${chatId}` });
export const chatsPartition = (userId: string) => ({ pk: user(userId), prefix: CHAT_PREFIX });
/** gsi1: a user's chats ordered by last update. */
export const chatsByUpdatedIndexKey = (userId: string, updatedAt: string, chatId: string) => ({
  gsi1pk: `${user(userId)}#CHATS`,
  gsi1sk: `${updatedAt}#${chatId}`,
});
export const chatsByUpdatedPartition = (userId: string) => `${user(userId)}#CHATS`;

// ---- Stored results and large values ----------------------------------------------------------
export const RESULT_PREFIX = 'RESULT#';
export const resultKey = (userId: string, resultId: string): Key => ({
  pk: user(userId),
  sk: `${RESULT_PREFIX}${resultId}`,
});
export const resultsPartition = (userId: string) => ({ pk: user(userId), prefix: RESULT_PREFIX });
/**
 * Chunks of a large JSON value (a result's data, a chat's messages). The owner item records the
 * blob id and chunk count; a blob whose owner does not point at it is invisible, so a failed write
 * never shows half a value.
 */
export const blobChunkKey = (ownerPk: string, blobId: string, index: number): Key => ({
  pk: ownerPk,
  sk: `BLOB#${blobId}#${String(index).padStart(4, '0')}`,
});

// ---- Enrichment jobs --------------------------------------------------------------------------
/** The job record lives with its owner, so listing a user's jobs is one Query (UUID v7: creation order). */
/**
 * One outside provider's answer to one lookup, remembered for the deployment (ttl): the lookup is a
 * digest of what was asked, so any customer asking the same buys it once. One partition per answer.
 */
export const providerAnswerKey = (provider: string, lookup: string, digest: string): Key => ({
  pk: `PROVIDER#${provider}#${lookup}#${digest}`,
  sk: 'ANSWER',
});
/** One of a provider's call slots: held (with an expiry) while a worker has a call open to it. */
export const providerSlotKey = (provider: string, slot: number): Key => ({
  pk: `PROVIDERSLOT#${provider}#${slot}`,
  sk: 'SLOT',
});
/** A provider paused for the deployment after it refused the key or said its quota is spent. */
export const providerPauseKey = (provider: string): Key => ({ pk: `PROVIDERPAUSE#${provider}`, sk: 'PAUSE' });
export const JOB_PREFIX = 'JOB#';
export const jobKey = (userId: string, jobId: string): Key => ({ pk: user(userId), sk: `${JOB_PREFIX}${jobId}` });
export const jobsPartition = (userId: string) => ({ pk: user(userId), prefix: JOB_PREFIX });
/** A job's work batches (~25 input rows each) get their own partition: the pipeline's workers write them in parallel. */
export const JOB_BATCH_PREFIX = 'BATCH#';
export const jobBatchKey = (jobId: string, batchNo: number): Key => ({
  pk: `JOBWORK#${jobId}`,
  sk: `${JOB_BATCH_PREFIX}${String(batchNo).padStart(5, '0')}`,
});
export const jobBatchesPartition = (jobId: string) => ({ pk: `JOBWORK#${jobId}`, prefix: JOB_BATCH_PREFIX });
/**
 * gsi3, sparse (beside the renewals' due index, under its own partitions): a job carries these while
 * it is pending or running, sorted by its last committed progress, so the watchdog reads exactly the
 * jobs that stopped moving with a Query. Closing a job removes them.
 */
export const JOB_WATCH_SHARDS = 4;
export const jobWatchPartition = (shard: number) => `JOB_INFLIGHT#${shard}`;
export const jobWatchIndexKey = (jobId: string, progressAt: string) => ({
  gsi3pk: jobWatchPartition(parseInt(jobId.replace(/-/g, '').slice(-4), 16) % JOB_WATCH_SHARDS),
  gsi3sk: jobWatchSortKey(jobId, progressAt),
});
export const jobWatchSortKey = (jobId: string, progressAt: string) => `${progressAt}#${jobId}`;
/** Upper bound (inclusive) of gsi3sk for every job whose last progress is at or before `atIso`. */
export const jobWatchUpTo = (atIso: string) => `${atIso}#~`;

// ---- Moderation communities -------------------------------------------------------------------
export const COMMUNITY_PREFIX = 'COMMUNITY#';
export const communityKey = (userId: string, communityId: string): Key => ({
  pk: user(userId),
  sk: `${COMMUNITY_PREFIX}${communityId}`,
});
export const communitiesPartition = (userId: string) => ({ pk: user(userId), prefix: COMMUNITY_PREFIX });
/** Pointer from the engine's public id to the owner, for the Telegram webhook (which carries no API key). */
export const moderationIdKey = (moderationId: string): Key => ({ pk: `MODERATION#${moderationId}`, sk: 'COMMUNITY' });
/**
 * gsi3, sparse: only communities that still bill (not expired, not deleted) carry these attributes,
 * so the renewal sweep reads exactly the due ones with a Query on the due time. Spread over a few
 * partitions so a large fleet does not make one hot key; the sweep queries each.
 */
export const RENEWAL_SHARDS = 4;
export const renewalDuePartition = (shard: number) => `RENEWAL_DUE#${shard}`;
export const renewalDueIndexKey = (communityId: string, nextBillingAt: string) => ({
  gsi3pk: renewalDuePartition(parseInt(communityId.replace(/-/g, '').slice(-4), 16) % RENEWAL_SHARDS),
  gsi3sk: `${nextBillingAt}#${communityId}`,
});
/** Upper bound (inclusive) of gsi3sk for everything due at or before `atIso`. */
export const renewalDueUpTo = (atIso: string) => `${atIso}#~`;

/** The engine's state of one community lives in its own partition, away from the owner's items. */
const engine = (communityId: string) => `MODCOMMUNITY#${communityId}`;
export const moderationEventKey = (communityId: string, eventId: string): Key => ({
  pk: engine(communityId),
  sk: `EVENT#${eventId}`,
});
export const moderationMemberKey = (communityId: string, userId: string): Key => ({
  pk: engine(communityId),
  sk: `MEMBER#${userId}`,
});
/** Counters are split over a few items so parallel writers of one batch never touch the same item. */
export const MODERATION_METRIC_SHARDS = 4;
export const moderationMetricsKey = (communityId: string, shard: number): Key => ({
  pk: engine(communityId),
  sk: `METRICS#${shard}`,
});
export const moderationMetricsPartition = (communityId: string) => ({ pk: engine(communityId), prefix: 'METRICS#' });
export const AUDIT_PREFIX = 'AUDIT#';
/** Ordered by when the action was taken, then by the event's place in its batch (one batch shares a millisecond). */
export const moderationAuditKey = (communityId: string, at: string, position: number, auditId: string): Key => ({
  pk: engine(communityId),
  sk: `${AUDIT_PREFIX}${at}#${String(position).padStart(3, '0')}#${auditId}`,
});
export const moderationAuditPartition = (communityId: string) => ({ pk: engine(communityId), prefix: AUDIT_PREFIX });

// ---- Growth -----------------------------------------------------------------------------------
/** A plan issued by resolve: its fingerprint, so quote only prices plans issued to this user unchanged. */
export const growthPlanKey = (userId: string, planId: string): Key => ({
  pk: user(userId),
  sk: `GROWTHPLAN#${planId}`,
});
export const GROWTH_RUN_PREFIX = 'GROWTHRUN#';
export const growthRunKey = (userId: string, runId: string): Key => ({
  pk: user(userId),
  sk: `${GROWTH_RUN_PREFIX}${runId}`,
});
/**
 * gsi3, sparse: a run carries these from its creation until its job is attached (or it fails before
 * starting), so the scheduled sweep finds runs whose start was interrupted without waiting for a read.
 */
export const GROWTH_RUN_START_SHARDS = 4;
export const growthRunStartPartition = (shard: number) => `RUN_STARTING#${shard}`;
export const growthRunStartIndexKey = (runId: string, createdAt: string) => ({
  gsi3pk: growthRunStartPartition(parseInt(runId.replace(/-/g, '').slice(-4), 16) % GROWTH_RUN_START_SHARDS),
  gsi3sk: `${createdAt}#${runId}`,
});
/** Upper bound (inclusive) of gsi3sk for every run created at or before `atIso`. */
export const growthRunStartUpTo = (atIso: string) => `${atIso}#~`;

// ---- Intelligence and curated data ------------------------------------------------------------
// Curated entities (shared by every user) live under CUR# partitions: profiles in shards, read by id,
// plus facet items that hold a copy of the entity under the facet a package filters on, so every
// package query is one Query on a facet partition, and lookup facets that name the profiles by
// domain, name, employer and LinkedIn URL. No index attribute on curated items.
/**
 * Profiles packed into shards: each kind's profiles spread over a fixed number of items by a hash of
 * their id, so a profile is read by id with one GetItem of its shard, and a first start writes about a
 * thousand items instead of one per entity. The counts keep a shard's compressed profiles near 6 KB on
 * the generated dataset (reads cost about what one profile item did) and under 400 KB at 20 times its size.
 */
const CURATED_SHARD_COUNTS = new Map<string, number>([
  ['fund', 500],
  ['company', 160],
  ['person', 250],
  ['kol', 30],
  ['builder', 100],
]);
export const curatedShardOf = (kind: string, id: string): number => {
  const count = CURATED_SHARD_COUNTS.get(kind);
  if (count === undefined) throw new Error(`No shards for curated kind ${kind}`);
  return fnv1a(id) % count;
};
export const curatedShardKey = (kind: string, shard: number): Key => ({
  pk: `CUR#SHARD#${kind.toUpperCase()}#${String(shard).padStart(4, '0')}`,
  sk: 'SHARD',
});
/** Every shard of every kind (a re-seed upgrading the layout reads them all once). */
export const everyCuratedShardKey = (): Key[] =>
  [...CURATED_SHARD_COUNTS].flatMap(([kind, count]) =>
    Array.from({ length: count }, (_, i) => curatedShardKey(kind, i)),
  );
/** Facet partitions: funds by sector, KOLs by sector, prospects (people) by interest, builders by ecosystem. */
export const curatedFacetKey = (facet: string, value: string, kind: string, id: string): Key => ({
  pk: `CUR#FACET#${facet}#${value}`,
  sk: `${kind.toUpperCase()}#${id}`,
});
export const CURATED_FACET_PREFIX = 'CUR#FACET#';
export const curatedFacetPartition = (facet: string, value: string): string =>
  `${CURATED_FACET_PREFIX}${facet}#${value}`;
/**
 * The seed packs a facet's copies into few large items (DynamoDB Local writes items, not bytes, slowly);
 * imports write single-entity items beside them, which take precedence.
 */
export const CURATED_FACET_PACK_PREFIX = 'PACK#';
const packSortKey = (index: number) => `${CURATED_FACET_PACK_PREFIX}${String(index).padStart(4, '0')}`;
export const curatedFacetPackKey = (facet: string, value: string, index: number): Key => ({
  pk: curatedFacetPartition(facet, value),
  sk: packSortKey(index),
});
/**
 * Bounds (of a BETWEEN on sk) of a facet partition's packs from index `count` on: what a seed that
 * wrote `count` packs there can find left of a larger dataset's.
 */
export const curatedFacetPacksFrom = (count: number) => ({
  from: packSortKey(count),
  to: `${CURATED_FACET_PACK_PREFIX}\uffff`,
});
/**
 * The company lookup facet: each company's id, name and domain under the bucket of its domain and the
 * bucket of its name slug, so that many domains and names (growth resolve's 1,000 pasted rows) are
 * answered by reading at most COMPANY_LOOKUP_BUCKETS partitions, one Query each.
 */
export const COMPANY_LOOKUP_FACET = 'COMPANY_LOOKUP';
export const COMPANY_LOOKUP_BUCKETS = 8;
/** FNV-1a (32 bits) of the text: a stable spread of names over buckets. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
/** The bucket of `D#<domain>` for a domain, `N#<slug>` for a name slug. */
const lookupBucket = (text: string, buckets = COMPANY_LOOKUP_BUCKETS): string => String(fnv1a(text) % buckets);
export const companyLookupDomainBucket = (domain: string): string => lookupBucket(`D#${domain}`);
export const companyLookupNameBucket = (slug: string): string => lookupBucket(`N#${slug}`);
/**
 * Companies by domain as whole copies (an enrichment job's question, one Query and no shard), in more,
 * larger buckets than the references' (about 25 KB each): a job reads each once a minute and function
 * instead of a shard a company.
 */
export const COMPANY_DOMAIN_FACET = 'COMPANY_DOMAIN';
const COMPANY_DOMAIN_BUCKETS = 48;
export const companyDomainBucket = (domain: string): string => lookupBucket(`D#${domain}`, COMPANY_DOMAIN_BUCKETS);
/** Funds by the slug of their name: id, name and domain, as the company lookup facet (the profile is in its shard). */
export const FUND_LOOKUP_FACET = 'FUND_LOOKUP';
export const fundLookupNameBucket = (slug: string): string => lookupBucket(`N#${slug}`);
/**
 * People by employer (id), by their employer's name slug (companies only) and by LinkedIn slug: a
 * whole copy of each person under the bucket of each key, one facet per key, so a lookup is one Query
 * (kept for FACET_CACHE_MS like the facets) and reads no shard: an execute of people at a company
 * stays at the requests it sent when people were items of their own, and an enrichment job reads a
 * company's people with the bucket its first company of that bucket read.
 */
export const PERSON_EMPLOYER_FACET = 'PERSON_EMPLOYER';
export const PERSON_TEAM_FACET = 'PERSON_TEAM';
export const PERSON_LINKEDIN_FACET = 'PERSON_LINKEDIN';
const PERSON_LOOKUP_BUCKETS = 96;
export const personEmployerBucket = (organizationId: string): string =>
  lookupBucket(`O#${organizationId}`, PERSON_LOOKUP_BUCKETS);
export const personTeamBucket = (nameSlug: string): string => lookupBucket(`T#${nameSlug}`, PERSON_LOOKUP_BUCKETS);
/**
 * Half as many LinkedIn buckets (about 20 KB each): only an enrichment job reads them, each once a
 * minute and function, and the first start writes fewer items.
 */
const PERSON_LINKEDIN_BUCKETS = 48;
export const personLinkedinBucket = (slug: string): string => lookupBucket(`L#${slug}`, PERSON_LINKEDIN_BUCKETS);
/** Builders by category: whole copies, as builders by ecosystem. */
export const BUILDER_CATEGORY_FACET = 'BUILDER_CATEGORY';
/**
 * The facet partitions a layout of shards wrote that the current layout neither writes nor reads, by
 * that layout: a re-seed upgrading from it empties them, one Query each on partitions known by name
 * (no Scan). Layout 6 kept people's lookups as references (id, employer, slugs) in one facet of 128
 * buckets; layout 7 keeps whole copies under PERSON_EMPLOYER, PERSON_TEAM and PERSON_LINKEDIN instead.
 */
const CURATED_PARTITIONS_LEFT_BY_LAYOUT: ReadonlyMap<number, readonly string[]> = new Map([
  [6, Array.from({ length: 128 }, (_, bucket) => curatedFacetPartition('PERSON_LOOKUP', String(bucket)))],
]);
export const curatedPartitionsLeftBy = (layout: number): readonly string[] =>
  CURATED_PARTITIONS_LEFT_BY_LAYOUT.get(layout) ?? [];
/** Marker written last by the seed: its presence means the generated dataset is fully loaded. */
export const curatedSeedMarkerKey = (): Key => ({ pk: 'CUR#META', sk: 'SEED' });

/** A quote token, by the SHA-256 of the token (the token itself is never stored); expires by ttl. */
export const quoteKey = (tokenHash: string): Key => ({ pk: `QUOTE#${tokenHash}`, sk: 'QUOTE' });
/** The intelligence side of an execute or expansion result (package, slots, ranking progress). */
export const intelligenceResultKey = (userId: string, resultId: string): Key => ({
  pk: user(userId),
  sk: `INTEL#${resultId}`,
});
/** The identical-query rule: one item per user and canonical query, pointing at its result. */
export const intelligenceQueryKey = (userId: string, queryHash: string): Key => ({
  pk: user(userId),
  sk: `INTELQUERY#${queryHash}`,
});
/**
 * Unlock memory: the contact tier each entity of one kind is unlocked at for this user, spread over
 * buckets by entity id (intelligenceRepo.ts). Without a bucket: the single item of one kind that
 * accounts unlocking before the buckets kept, still read, no longer written.
 */
export const unlockMemoryKey = (userId: string, entityKind: string, bucket?: number): Key => ({
  pk: user(userId),
  sk: bucket === undefined ? `UNLOCKS#${entityKind}` : `UNLOCKS#${entityKind}#${bucket.toString(16).padStart(2, '0')}`,
});

// ---- Moderation on the platforms -------------------------------------------------
/** Activation token (by its SHA-256) to its community: `/activate <token>` names no community otherwise. */
export const activationTokenKey = (tokenHash: string): Key => ({ pk: `ACTIVATION#${tokenHash}`, sk: 'COMMUNITY' });
/**
 * A place on a platform (a Telegram chat, a Discord guild, a subreddit, an X account, a Crisp website)
 * bound to one community: one item per (platform, external id), so a place belongs to one community
 * at a time. Telegram and Discord keep the partitions their bindings were written under before every
 * platform shared this key.
 */
const BINDING_PARTITIONS: ReadonlyMap<string, string> = new Map([
  ['telegram', 'TGCHAT'],
  ['discord', 'DCGUILD'],
]);
export const platformBindingKey = (platform: string, externalId: string): Key => ({
  pk: `${BINDING_PARTITIONS.get(platform) ?? `BIND#${platform}`}#${externalId}`,
  sk: 'BINDING',
});
/** Where a community lives on its platform (chat, alert chat, guild, audit-log cursor), beside the engine's state. */
export const moderationPlatformKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'PLATFORM' });
/** The community's taught text model: a head (version, part count) and the encoded counts in parts. */
export const textModelHeadKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'TEXTMODEL' });
export const textModelPartKey = (communityId: string, part: number): Key => ({
  pk: engine(communityId),
  sk: `TEXTMODEL#${String(part).padStart(3, '0')}`,
});
/** A near-duplicate fingerprint confirmed as spam, with the owners who confirmed it (shared across the deployment). */
export const sharedSpamKey = (fingerprint: string): Key => ({ pk: `SHAREDSPAM#${fingerprint}`, sk: 'OWNERS' });
/** A platform account banned for spam, with the owners whose communities banned it (shared across the deployment). */
export const sharedSpammerKey = (platform: string, accountId: string): Key => ({
  pk: `SHAREDSPAMMER#${platform}#${accountId}`,
  sk: 'OWNERS',
});
/** The per-community rules; absent means the defaults. */
export const moderationRulesKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'RULES' });
/** One decision's platform calls and how each went (exactly-once bookkeeping, the audit log's delivery status). */
export const moderationDeliveryKey = (communityId: string, deliveryId: string): Key => ({
  pk: engine(communityId),
  sk: `DELIVERY#${deliveryId}`,
});
/**
 * gsi3, sparse (under partitions of its own): a pending platform delivery carries these, sorted by
 * when it counts as stalled (its queue message lost), so the scheduled sweep queues it again.
 */
export const MODERATION_DELIVERY_DUE_SHARDS = 4;
export const moderationDeliveryDuePartition = (shard: number) => `MOD_DELIVERY_DUE#${shard}`;
/** Delivery ids are not UUIDs (`ev:...`, `cmd:...`) and command replies may have no community: the shard hashes both. */
const textShard = (text: string, shards: number) =>
  [...text].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % shards;
export const moderationDeliveryDueIndexKey = (communityId: string, deliveryId: string, stalledAt: string) => ({
  gsi3pk: moderationDeliveryDuePartition(textShard(`${communityId}/${deliveryId}`, MODERATION_DELIVERY_DUE_SHARDS)),
  gsi3sk: `${stalledAt}#${communityId}#${deliveryId}`,
});
export const moderationDeliveryDueUpTo = (atIso: string) => `${atIso}#~`;
/** The latest time a due index can name: a sweep reading up to it finds every entry, due or not (a restart's resume). */
export const EVERYTHING_DUE = '9999-12-31T23:59:59.999Z';
/**
 * gsi3, sparse: a Discord community whose AutoMod rules are to be written carries these until a sync
 * has run after the request, sorted by when its queue message counts as lost (few at a time: one partition).
 */
export const AUTOMOD_SYNC_DUE_PARTITION = 'MOD_AUTOMOD_DUE';
export const automodSyncDueIndexKey = (communityId: string, dueAt: string) => ({
  gsi3pk: AUTOMOD_SYNC_DUE_PARTITION,
  gsi3sk: `${dueAt}#${communityId}`,
});
export const automodSyncDueUpTo = (atIso: string) => `${atIso}#~`;
/** A new member who has not pressed the captcha button yet. */
export const moderationCaptchaKey = (communityId: string, userId: string): Key => ({
  pk: engine(communityId),
  sk: `CAPTCHA#${userId}`,
});
/** gsi3, sparse: pending captchas by deadline, so the scheduled sweep reads only the expired ones. */
export const CAPTCHA_SHARDS = 4;
export const captchaDuePartition = (shard: number) => `CAPTCHA_DUE#${shard}`;
export const captchaDueIndexKey = (communityId: string, userId: string, deadline: string) => ({
  gsi3pk: captchaDuePartition(parseInt(communityId.replace(/-/g, '').slice(-4), 16) % CAPTCHA_SHARDS),
  gsi3sk: `${deadline}#${communityId}#${userId}`,
});
export const captchaDueUpTo = (atIso: string) => `${atIso}#~`;
/**
 * An audit entry by id: ids are UUID v7 minted at the entry's `at`, so the id names the millisecond
 * prefix of its sort key and one Query on that prefix finds it.
 */
export const moderationAuditLookup = (communityId: string, auditId: string) => {
  const ms = parseInt(auditId.replace(/-/g, '').slice(0, 12), 16);
  return {
    pk: engine(communityId),
    prefix: `${AUDIT_PREFIX}${Number.isFinite(ms) ? new Date(ms).toISOString() : 'invalid'}#`,
  };
};
// ---- Known phishing domains ------------------------------------------------------------------
// One list for the deployment (shared/domain/moderation/phishingLists.ts), packed into shards by a
// hash of each domain: a generation of shards is written whole, then the head item is pointed at it;
// the generation it replaced expires (ttl).
const PHISHING_LIST = 'PHISHING_LIST';
export const PHISHING_LIST_SHARDS = 64;
export const phishingListHeadKey = (): Key => ({ pk: PHISHING_LIST, sk: 'HEAD' });
export const phishingListShardKey = (generation: string, shard: number): Key => ({
  pk: PHISHING_LIST,
  sk: `SHARD#${generation}#${String(shard).padStart(3, '0')}`,
});
/** The generation's leading domains in the source's own order (what Discord's AutoMod gets). */
export const phishingListLeadingKey = (generation: string): Key => ({ pk: PHISHING_LIST, sk: `LEADING#${generation}` });
/** The shard of a domain: a listed one, or a host (or a parent of it) being checked. */
export const phishingListShardOf = (domain: string, shards: number): number => fnv1a(domain) % shards;

// ---- Reddit and polled platforms ----------------------------------------------------------------
/**
 * Communities a poller reads, one partition per platform: a bound Reddit subreddit or X account puts
 * its community here, so the minute schedule lists them with one Query (billing is checked per poll).
 */
export const POLLED_PREFIX = 'POLLED#';
export const polledCommunityKey = (platform: string, communityId: string): Key => ({
  pk: `${POLLED_PREFIX}${platform}`,
  sk: communityId,
});
export const polledCommunitiesPartition = (platform: string) => `${POLLED_PREFIX}${platform}`;
/** Reddit: the request budget of one OAuth client id, shared by every worker of the deployment. */
export const redditRateBudgetKey = (clientId: string): Key => ({ pk: `REDDIT_BUDGET#${clientId}`, sk: 'BUDGET' });
/** Reddit: the newest post and comment of the subreddit already read (ids are base-36 and grow with time). */
export const redditCursorKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'REDDIT_CURSOR' });
/** When POST /sync last polled the community's platform (spaces on-demand polls). */
export const syncPollKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'SYNC_POLL' });
/** Reddit has no mute: ours, one item per muted author, read by each poll of the community. */
export const REDDIT_MUTE_PREFIX = 'REDDIT_MUTE#';
export const redditMuteKey = (communityId: string, username: string): Key => ({
  pk: engine(communityId),
  sk: `${REDDIT_MUTE_PREFIX}${username.toLowerCase()}`,
});
export const redditMutesPartition = (communityId: string) => ({ pk: engine(communityId), prefix: REDDIT_MUTE_PREFIX });
/** When a Reddit account last got the bot's reply refusing an activation token (spaces such replies out). */
export const redditRefusalReplyKey = (username: string): Key => ({
  pk: `REDDIT_ACCOUNT#${username.toLowerCase()}`,
  sk: 'REFUSAL_REPLY',
});
// ---- X (OAuth 2.0 accounts of X communities) ------------------------------------------------------
/** A pending authorization, by the SHA-256 of its `state` (single use, expiring; the state itself is never stored). */
export const xOAuthStateKey = (stateHash: string): Key => ({ pk: `XOAUTH#${stateHash}`, sk: 'STATE' });
/** The community's X account and its sealed tokens (one grant per community). */
export const xTokensKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'XTOKENS' });
/** Held by the one worker spending the refresh token (X rotates it on every use). */
export const xRefreshLeaseKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'XLEASE' });
/** Where polling replies stands (since_id, a paging in progress). */
export const xPollCursorKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'XCURSOR' });
/** Authors banned in the community: their later replies are hidden on sight. */
export const xBannedAuthorsKey = (communityId: string): Key => ({ pk: engine(communityId), sk: 'XBANNED' });

// ---- Moderation on Crisp -----------------------------------------------------------------------
/**
 * A muted Crisp conversation (blocked until the mute ends: Crisp's block has no end of its own). gsi3,
 * sparse: by when the mute ends, so the minute sweep reads exactly the blocks to lift.
 */
export const crispMuteKey = (communityId: string, sessionId: string): Key => ({
  pk: engine(communityId),
  sk: `CRISPMUTE#${sessionId}`,
});
export const CRISP_MUTE_SHARDS = 4;
export const crispMuteDuePartition = (shard: number) => `CRISP_MUTE_DUE#${shard}`;
export const crispMuteDueIndexKey = (communityId: string, sessionId: string, endsAt: string) => ({
  gsi3pk: crispMuteDuePartition(parseInt(communityId.replace(/-/g, '').slice(-4), 16) % CRISP_MUTE_SHARDS),
  gsi3sk: `${endsAt}#${communityId}#${sessionId}`,
});
export const crispMuteDueUpTo = (atIso: string) => `${atIso}#~`;
/** When a Crisp website last got a note refusing an activation token (spaces such notes out). */
export const crispRefusalNoteKey = (websiteId: string): Key => ({
  pk: `CRISP_WEBSITE#${websiteId}`,
  sk: 'REFUSAL_NOTE',
});

// ---- Outbound webhooks ------------------------------------------------------------------------
export const WEBHOOK_ENDPOINT_PREFIX = 'WHENDPOINT#';
export const webhookEndpointKey = (userId: string, endpointId: string): Key => ({
  pk: user(userId),
  sk: `${WEBHOOK_ENDPOINT_PREFIX}${endpointId}`,
});
export const webhookEndpointsPartition = (userId: string) => ({ pk: user(userId), prefix: WEBHOOK_ENDPOINT_PREFIX });
/** How many webhook endpoints the user has, moved in the transaction of each create and delete (the per-user limit). */
export const webhookEndpointCountKey = (userId: string): Key => ({ pk: user(userId), sk: 'WHCOUNT' });
/**
 * The outbox: one item per event, written in the transaction of the state change it reports. gsi3,
 * sparse (under partitions of its own): an event carries these until it has been fanned out into
 * deliveries, so the sweep finds any event whose after-commit dispatch was lost.
 */
export const webhookEventKey = (userId: string, eventId: string): Key => ({
  pk: user(userId),
  sk: `WHEVENT#${eventId}`,
});
export const WEBHOOK_OUTBOX_SHARDS = 4;
const shardOf = (id: string, shards: number) => parseInt(id.replace(/-/g, '').slice(-4), 16) % shards;
export const webhookOutboxPartition = (shard: number) => `WEBHOOK_OUTBOX#${shard}`;
export const webhookOutboxIndexKey = (eventId: string, createdAt: string) => ({
  gsi3pk: webhookOutboxPartition(shardOf(eventId, WEBHOOK_OUTBOX_SHARDS)),
  gsi3sk: `${createdAt}#${eventId}`,
});
/** One delivery of one event to one endpoint (the delivery log); ids are time-ordered, so the log lists by key. */
export const WEBHOOK_DELIVERY_PREFIX = 'WHDELIVERY#';
export const webhookDeliveryKey = (userId: string, deliveryId: string): Key => ({
  pk: user(userId),
  sk: `${WEBHOOK_DELIVERY_PREFIX}${deliveryId}`,
});
export const webhookDeliveriesPartition = (userId: string) => ({ pk: user(userId), prefix: WEBHOOK_DELIVERY_PREFIX });
/**
 * gsi1 and gsi2 on every delivery, so the log is read by index whatever the filter: gsi1 holds a user's
 * deliveries of one status, gsi2 those of one endpoint and one status (an endpoint alone: its three
 * status partitions, merged). Both sort by delivery id, that is by time; a status change moves the item.
 */
export const webhookDeliveriesByStatusPartition = (userId: string, status: string) =>
  `${user(userId)}#${WEBHOOK_DELIVERY_PREFIX}${status}`;
export const webhookDeliveriesByEndpointPartition = (userId: string, endpointId: string, status: string) =>
  `${user(userId)}#${WEBHOOK_DELIVERY_PREFIX}${endpointId}#${status}`;
export const webhookDeliveryListIndexKey = (
  userId: string,
  endpointId: string,
  status: string,
  deliveryId: string,
) => ({
  gsi1pk: webhookDeliveriesByStatusPartition(userId, status),
  gsi1sk: deliveryId,
  gsi2pk: webhookDeliveriesByEndpointPartition(userId, endpointId, status),
  gsi2sk: deliveryId,
});
/** gsi3, sparse: a pending delivery carries these, sorted by its next attempt, so the sweep re-queues any whose message was lost. */
export const WEBHOOK_DUE_SHARDS = 4;
export const webhookDuePartition = (shard: number) => `WEBHOOK_DUE#${shard}`;
export const webhookDueIndexKey = (deliveryId: string, nextAttemptAt: string) => ({
  gsi3pk: webhookDuePartition(shardOf(deliveryId, WEBHOOK_DUE_SHARDS)),
  gsi3sk: `${nextAttemptAt}#${deliveryId}`,
});
/** Upper bound (inclusive) of gsi3sk for everything at or before `atIso` (outbox and due index alike). */
export const webhookIndexUpTo = (atIso: string) => `${atIso}#~`;
