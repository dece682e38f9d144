/**
 * The waterfall: the curated data and local rules answer first; what they leave open goes to each
 * configured outside provider in order (ENRICHMENT_PROVIDERS) until one finds it. Every answer a
 * provider gives (found or found nothing) is remembered for the deployment for 30 days, so the same
 * lookup is bought once whoever asks. A provider that fails is named in the job's warnings and the
 * next one is asked; one whose key or quota is spent is skipped for the rest of the batch. Nothing
 * here fails a job. Values carry the provider's name as their `source`.
 */
import { now } from '#shared/adapters/ports';
import type {
  EnrichmentProvider,
  LookupName,
  LookupOutcome,
  Lookups,
  ProviderName,
} from '#shared/adapters/enrichment/port';
import { randomUUID } from 'node:crypto';
import { getProviderAnswer, putProviderAnswer } from '#shared/store/providerAnswersRepo';
import { releaseProviderSlot, takeProviderSlot } from '#shared/store/providerSlotsRepo';
import { getProviderPause, pauseProvider } from '#shared/store/providerPausesRepo';
import { logger } from '#shared/observability/logger';
import { getOrInsertComputed } from '#shared/maps';
import { verificationStatus, worseStatus } from '#shared/domain/jobs/emailRules';
import { matchesFocus, seniority } from './builtin';
import type { DiscoveredContact, Providers, VerifyReason } from './types';

/** How long a provider's answer is remembered. */
export const ANSWER_TTL_SECONDS = 30 * 24 * 60 * 60;
/**
 * Calls one worker process has open to one provider at a time, whatever the batches it runs (a batch
 * asks for all its rows at once, and the local server runs many batches in one process); fewer when
 * the provider has fewer slots for the whole deployment.
 */
export const PROVIDER_CONCURRENCY = 8;
/** How long a call slot is held at most: a call's attempts and waits (3 x 10 s + 2 x 2 s) fit; a dead worker's slot frees after it. */
export const SLOT_LEASE_MS = 40_000;
/** How often a worker looks for a free slot when the provider's are all held. */
const SLOT_POLL_MS = 50;
/**
 * How long one stage run may keep asking providers: the worker's function has two minutes for its
 * messages, and a call under way may still take its timeout after this. Lookups left then are
 * answered by the curated data and rules alone, and the warnings say so.
 */
export const PROVIDER_TIME_BUDGET_MS = 45_000;
/** A refused key or a spent quota pauses the provider for every worker this long, or as long as it asked (at most a day). */
export const DEFAULT_PAUSE_SECONDS = 300;
const MAX_PAUSE_SECONDS = 24 * 60 * 60;
/** Distinct warnings one batch reports; the rest repeat them. */
const MAX_WARNINGS = 5;

export interface Found<T> {
  value: T;
  source: ProviderName;
}

/** What the waterfall did, for the job's warnings and the bench. */
export interface WaterfallReport {
  warnings: string[];
  /** Calls that went out to a provider, by provider and lookup. */
  bought: Partial<Record<ProviderName, Partial<Record<LookupName, number>>>>;
  /** Lookups answered from the remembered answers. */
  cached: number;
}

/** At most `limit` at once; the rest wait their turn. */
function limiter(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await work();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

/** What is asked, normalised, so two spellings of one lookup are one answer. */
const queryText = (input: object): string =>
  JSON.stringify(
    Object.entries(input)
      .map(([k, v]) => [k, typeof v === 'string' ? v.trim().toLowerCase() : v])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

const isFound = (value: unknown): boolean => value !== null && !(Array.isArray(value) && value.length === 0);

/** Per provider, shared by every waterfall of the process. */
const processLimits = new Map<ProviderName, ReturnType<typeof limiter>>();

export class ProviderWaterfall {
  private readonly stopped = new Set<ProviderName>();
  private readonly warnings = new Set<string>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly bought: WaterfallReport['bought'] = {};
  private cached = 0;

  private readonly deadline: number;
  private readonly pauses = new Map<ProviderName, Promise<boolean>>();
  private readonly id = randomUUID();
  private calls = 0;

  constructor(
    private readonly providers: readonly EnrichmentProvider[],
    budgetMs: number = PROVIDER_TIME_BUDGET_MS,
  ) {
    this.deadline = Date.now() + budgetMs;
  }

  /** Whether another worker (or an earlier run) paused the provider: read once per run. */
  private paused(provider: ProviderName): Promise<boolean> {
    return getOrInsertComputed(this.pauses, provider, async () => {
      const pause = await getProviderPause(provider, Date.now());
      if (pause)
        this.warn(
          `${provider}: paused until ${new Date(pause.until).toISOString()} (${pause.reason}); not asked for this batch`,
        );
      return pause !== undefined;
    });
  }

  /** Past the run's budget: no new call starts (said once in the warnings). */
  private outOfTime(provider: ProviderName): boolean {
    if (Date.now() <= this.deadline) return false;
    this.warn(`${provider}: the batch's time for outside providers ran out; lookups left were not asked`);
    return true;
  }

  private warn(text: string): void {
    if (this.warnings.size < MAX_WARNINGS) this.warnings.add(text);
  }

  get configured(): boolean {
    return this.providers.length > 0;
  }

  /**
   * The first provider's find, in order; null when none found anything (or none could answer).
   * `conclusive` says which answers end the search (an `unknown` verification does not: the next provider may know).
   */
  async ask<L extends LookupName>(
    lookup: L,
    input: Lookups[L]['input'],
    conclusive: (value: Lookups[L]['output']) => boolean = () => true,
  ): Promise<Found<Lookups[L]['output']> | null> {
    for (const provider of this.providers) {
      const call = provider.lookups[lookup];
      if (!call || this.stopped.has(provider.name) || (await this.paused(provider.name))) continue;
      const query = queryText(input);
      const key = `${provider.name} ${lookup} ${query}`;
      const value = (await getOrInsertComputed(this.inFlight, key, () =>
        this.answer(provider, lookup, query, () => call(input)),
      )) as Lookups[L]['output'] | null | undefined;
      if (value !== undefined && value !== null && isFound(value) && conclusive(value))
        return { value, source: provider.name };
    }
    return null;
  }

  /**
   * One of the provider's call slots in the table (shared by every worker), waiting while all are
   * held; undefined when the run's time ran out first.
   */
  private async takeSlot(provider: EnrichmentProvider): Promise<{ slot: number; holder: string } | undefined> {
    const holder = `${this.id}#${++this.calls}`;
    const first = Math.floor(Math.random() * provider.slots);
    for (;;) {
      for (let n = 0; n < provider.slots; n++) {
        const slot = (first + n) % provider.slots;
        const at = Date.now();
        if (await takeProviderSlot(provider.name, slot, holder, at, at + SLOT_LEASE_MS)) return { slot, holder };
      }
      if (this.outOfTime(provider.name)) return undefined;
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
    }
  }

  report(): WaterfallReport {
    return { warnings: [...this.warnings], bought: this.bought, cached: this.cached };
  }

  /** The remembered answer, or one bought now and remembered; undefined when the provider failed. */
  private async answer(
    provider: EnrichmentProvider,
    lookup: LookupName,
    query: string,
    call: () => Promise<LookupOutcome<unknown>>,
  ): Promise<unknown> {
    const at = now();
    const nowSeconds = Math.floor(at.getTime() / 1000);
    const remembered = await getProviderAnswer(provider.name, lookup, query, nowSeconds);
    if (remembered) {
      this.cached += 1;
      return remembered.value === null ? null : JSON.parse(remembered.value);
    }
    const limit = getOrInsertComputed(processLimits, provider.name, () =>
      limiter(Math.min(PROVIDER_CONCURRENCY, provider.slots)),
    );
    if (this.outOfTime(provider.name)) return undefined;
    const outcome = await limit(async () => {
      // Another row's answer may have stopped the provider while this one waited its turn.
      if (this.stopped.has(provider.name) || this.outOfTime(provider.name)) return undefined;
      const slot = await this.takeSlot(provider);
      if (slot === undefined) return undefined;
      try {
        const perProvider = this.bought[provider.name] ?? {};
        perProvider[lookup] = (perProvider[lookup] ?? 0) + 1;
        this.bought[provider.name] = perProvider;
        return await call();
      } finally {
        await releaseProviderSlot(provider.name, slot.slot, slot.holder).catch(() => undefined);
      }
    });
    if (outcome === undefined) return undefined;
    if (!outcome.ok) {
      if (outcome.stop) {
        this.stopped.add(provider.name);
        // Every other worker stops asking too, until the provider's own wait is over.
        const seconds = Math.min(MAX_PAUSE_SECONDS, outcome.retryAfterSeconds ?? DEFAULT_PAUSE_SECONDS);
        await pauseProvider({
          provider: provider.name,
          until: Date.now() + seconds * 1000,
          reason: outcome.error,
        }).catch(() => undefined);
      }
      this.warn(
        `${outcome.error}${outcome.stop ? '; not asked again for this batch' : ''}${
          outcome.retryAfterSeconds !== undefined ? ` (asked to wait ${outcome.retryAfterSeconds} s)` : ''
        }`,
      );
      return undefined;
    }
    const value = outcome.value !== null && isFound(outcome.value) ? outcome.value : null;
    // Bought is bought: a failed write of the answer costs the next asker a call, not this row its value.
    await putProviderAnswer({
      provider: provider.name,
      lookup,
      query,
      value: value === null ? null : JSON.stringify(value),
      answeredAt: at.toISOString(),
      ttl: nowSeconds + ANSWER_TTL_SECONDS,
    }).catch((err: unknown) =>
      logger.warn('A provider answer could not be remembered', { provider: provider.name, lookup, error: err }),
    );
    return value;
  }
}

/** Verification by a provider: its verdict, with the local reasons it does not contradict (a role account stays one). */
function mergeVerification(
  local: { status: string; reasons: VerifyReason[] },
  found: Found<Lookups['email_verify']['output']>,
) {
  // The provider reached the mail server, so a local DNS timeout is moot.
  const localReasons = local.reasons.filter((r) => r !== 'dns_timeout');
  const reasons = [...new Set([...localReasons, ...found.value.reasons])];
  return {
    status: worseStatus(found.value.status, verificationStatus(reasons)),
    reasons,
    source: found.source,
  };
}

/** The built-in providers with the waterfall behind each capability an outside provider can answer. */
export function withWaterfall(builtin: Providers, waterfall: ProviderWaterfall): Providers {
  if (!waterfall.configured) return builtin;
  return {
    ...builtin,
    company_size: {
      name: 'waterfall',
      async run(input) {
        const local = await builtin.company_size.run(input);
        if (local.employee_count !== null) return local;
        const found = await waterfall.ask('company_size', { domain: input.company.domain });
        return found ? { employee_count: found.value.employee_count, source: found.source } : local;
      },
    },
    contact_discovery: {
      name: 'waterfall',
      async run(input) {
        const local = await builtin.contact_discovery.run(input);
        if (local.length > 0) return local;
        const found = await waterfall.ask('contact_discovery', { domain: input.company.domain, limit: input.limit });
        if (!found) return [];
        const people = input.roleFocus.length
          ? found.value.filter((p) => matchesFocus(p.title, input.roleFocus))
          : found.value;
        return [...people]
          .sort((a, b) => seniority(a.title) - seniority(b.title) || a.full_name.localeCompare(b.full_name))
          .slice(0, input.limit)
          .map(
            (p): DiscoveredContact => ({
              person_id: null,
              full_name: p.full_name,
              first_name: p.first_name,
              last_name: p.last_name,
              title: p.title,
              linkedin_url: p.linkedin_url,
              location: null,
              source: found.source,
              found_email: p.email ? { email: p.email, confidence: p.email_confidence, source: found.source } : null,
            }),
          );
      },
    },
    email_lookup: {
      name: 'waterfall',
      async run(input) {
        const local = await builtin.email_lookup.run(input);
        if (local.source === 'curated') return local;
        // Bought with the person already: delivering it costs no second call.
        const listed = input.contact.found_email;
        if (listed) return { email: listed.email, source: listed.source, pattern: null, confidence: listed.confidence };
        if (local.email) return local;
        const words = (input.contact.full_name ?? '').trim().split(/\s+/).filter(Boolean);
        const first = input.contact.first_name ?? words[0];
        const last = input.contact.last_name ?? (words.length > 1 ? words[words.length - 1] : undefined);
        if (!input.contact.domain || !first || !last) return local;
        const found = await waterfall.ask('email_lookup', {
          domain: input.contact.domain,
          first_name: first,
          last_name: last,
        });
        return found
          ? { email: found.value.email, source: found.source, pattern: null, confidence: found.value.confidence }
          : local;
      },
    },
    email_verify: {
      name: 'waterfall',
      async run(input) {
        const local = await builtin.email_verify.run(input);
        // What the rules already rule out is not worth a call; a provider that cannot tell leaves the rules' verdict.
        if (local.status === 'undeliverable') return local;
        const found = await waterfall.ask(
          'email_verify',
          { email: input.email.toLowerCase() },
          (v) => v.status !== 'unknown',
        );
        return found ? mergeVerification(local, found) : local;
      },
    },
  };
}
