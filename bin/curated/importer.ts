/**
 * Loads an operator's own curated records from JSON Lines. One record per line, `kind` first:
 *
 *   {"kind":"fund","id":"fund-acme","name":"Acme Ventures","domain":"acme.vc","fundType":"vc","tier":2,"jurisdiction":"singapore",
 *    "sectors":["defi"],"stages":["seed"],"minChequeUsd":250000,"maxChequeUsd":1000000}
 *   {"kind":"company","id":"co-acme","name":"Acme Labs","domain":"acmelabs.io","sectors":["defi"],"employeeCount":12}
 *   {"kind":"person","id":"per-acme-1","firstName":"Ada","lastName":"Stone","role":"CEO","roleFamily":"leadership","companyId":"co-acme",
 *    "email":"ada@acmelabs.io"}
 *   {"kind":"round","id":"rnd-acme-seed","companyId":"co-acme","sector":"defi","stage":"seed","amountUsd":3000000,
 *    "announcedOn":"2026-05-01","leadFundId":"fund-acme","investorIds":["fund-acme"]}
 *   {"kind":"kol",...} and {"kind":"builder",...} with the fields of shared/domain/curated/model.ts.
 *
 * Field names are those of shared/domain/curated/model.ts; optional fields take sensible defaults. Every line
 * is validated (types, taxonomy values, references between records, in the file or already stored)
 * before anything is written: one bad line and nothing is loaded, with every problem reported by
 * line number. Records with an existing id replace it, and index entries the new version no longer
 * has are removed. Writes are idempotent, so an interrupted load is finished by running it again.
 * Running API functions see the changes within a minute: they cache facet reads for FACET_CACHE_MS.
 */
import * as z from '#shared/zod';
import {
  BUILDER_CATEGORIES,
  ECOSYSTEMS,
  FUND_TYPES,
  JURISDICTIONS,
  PLATFORMS,
  ROLE_FAMILIES,
  SECTORS,
  STAGES,
  termLabel,
  type Term,
} from '#shared/domain/curated/taxonomy';
import {
  EMAIL_PATTERNS,
  type CuratedBuilder,
  type CuratedCompany,
  type CuratedEntity,
  type CuratedFund,
  type CuratedKol,
  type CuratedPerson,
  type CuratedRound,
  type EntityKind,
} from '#shared/domain/curated/model';
import { curatedItemsFor } from '#shared/domain/curated/copies';
import { deleteCuratedKeys, putCuratedEntities, putCuratedItems } from '#shared/store/curatedWrites';
import { forgetCachedFacets, getCuratedEntities } from '#shared/store/curatedReads';
import { refreshPortfolios } from '#shared/domain/curated/funds';
import { normaliseDomain } from '#shared/hostNames';
import { own } from '#shared/dictionary';

const ids = <T extends readonly Term[]>(terms: T) =>
  z.enum(terms.map((t) => t.id) as [T[number]['id'], ...T[number]['id'][]]);
const id = (prefix: string) =>
  z
    .string()
    .check(
      z.regex(
        new RegExp(`^${prefix}-[a-z0-9-]{1,60}$`),
        `Must look like ${prefix}-<lower-case letters, digits, dashes>`,
      ),
    );
const url = z.url().check(z.maxLength(300));
const nullableUrl = z._default(z.nullable(url), null);
const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD'));
const text = (max = 2000) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
/** A company or fund domain in its one canonical form (shared/hostNames.ts); anything else is a line error. */
const hostname = z.pipe(
  text(253),
  z.transform((value, ctx) => {
    const domain = normaliseDomain(value);
    if (!domain)
      ctx.issues.push({
        code: 'custom',
        message: `Expected a domain such as acme.io, got ${JSON.stringify(value)}`,
        input: value,
      });
    return domain ?? value;
  }),
);
const contacts = {
  email: z._default(z.nullable(z.email()), null),
  linkedinUrl: nullableUrl,
  xUrl: nullableUrl,
  telegramHandle: z._default(z.nullable(z.string().check(z.regex(/^@[A-Za-z0-9_]{3,40}$/, 'Expected @handle'))), null),
  phone: z._default(
    z.nullable(
      z.string().check(z.regex(/^\+[0-9 ()-]{6,24}$/, 'Expected an international number, e.g. +44 20 7946 0000')),
    ),
    null,
  ),
  githubUrl: nullableUrl,
};
const year = z.int().check(z.gte(1990), z.lte(2100));

const LINE_SCHEMAS = {
  fund: z.strictObject({
    kind: z.literal('fund'),
    id: id('fund'),
    name: text(120),
    domain: hostname,
    website: z.optional(url),
    fundType: ids(FUND_TYPES),
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    jurisdiction: ids(JURISDICTIONS),
    location: z.optional(text(120)),
    sectors: z.array(ids(SECTORS)).check(z.minLength(1)),
    stages: z.array(ids(STAGES)).check(z.minLength(1)),
    minChequeUsd: z.number().check(z.gte(0)),
    maxChequeUsd: z.number().check(z.gte(0)),
    foundedYear: z._default(year, 2020),
    tagline: z._default(text(300), 'Early-stage investor.'),
    description: z.optional(text()),
    partnerId: z._default(z.nullable(id('per')), null),
  }),
  company: z.strictObject({
    kind: z.literal('company'),
    id: id('co'),
    name: text(120),
    domain: hostname,
    website: z.optional(url),
    employeeCount: z._default(z.nullable(z.int().check(z.gte(1))), null),
    sectors: z.array(ids(SECTORS)).check(z.minLength(1)),
    ecosystems: z._default(z.array(ids(ECOSYSTEMS)), []),
    location: z._default(text(120), 'Unknown'),
    foundedYear: z._default(year, 2022),
    tagline: z.optional(text(300)),
    description: z.optional(text()),
    emailPattern: z._default(z.enum(EMAIL_PATTERNS as [string, ...string[]]), 'first.last'),
    primaryContactId: z._default(z.nullable(id('per')), null),
  }),
  person: z.strictObject({
    kind: z.literal('person'),
    id: id('per'),
    firstName: text(80),
    lastName: text(80),
    role: text(120),
    roleFamily: ids(ROLE_FAMILIES),
    companyId: z.string().check(z.regex(/^(co|fund)-/, 'A company (co-) or fund (fund-) id')),
    location: z.optional(text(120)),
    bio: z.optional(text()),
    interests: z.optional(z.array(ids(SECTORS))),
    engagementScore: z._default(z.number().check(z.gte(0), z.lte(1)), 0.3),
    sinceYear: z._default(year, 2022),
    ...contacts,
  }),
  kol: z.strictObject({
    kind: z.literal('kol'),
    id: id('kol'),
    name: text(120),
    handle: z.string().check(z.regex(/^[A-Za-z0-9_]{2,40}$/)),
    platform: ids(PLATFORMS),
    followers: z.int().check(z.gte(0)),
    gmScore: z.int().check(z.gte(0), z.lte(1000)),
    smarts: z.int().check(z.gte(0)),
    xBioLabel: text(120),
    xBioReason: text(500),
    sectors: z.array(ids(SECTORS)).check(z.minLength(1)),
    location: z._default(text(120), 'Unknown'),
    description: z.optional(text()),
    ...contacts,
  }),
  builder: z.strictObject({
    kind: z.literal('builder'),
    id: id('bld'),
    name: text(120),
    handle: z.string().check(z.regex(/^[A-Za-z0-9_-]{2,40}$/)),
    category: ids(BUILDER_CATEGORIES),
    skills: z.array(text(40)).check(z.minLength(1)),
    role: text(120),
    companyId: z._default(z.nullable(id('co')), null),
    location: z._default(text(120), 'Unknown'),
    ecosystems: z.array(ids(ECOSYSTEMS)).check(z.minLength(1)),
    hackathons: z._default(
      z.array(
        z.strictObject({
          hackathon: text(120),
          year,
          project: text(120),
          challenge: text(120),
          won: z.boolean(),
          prizeUsd: z.number().check(z.gte(0)),
        }),
      ),
      [],
    ),
    commitsLast90d: z._default(z.int().check(z.gte(0)), 0),
    lastActiveOn: day,
    description: z.optional(text()),
    ...contacts,
  }),
  round: z.strictObject({
    kind: z.literal('round'),
    id: id('rnd'),
    companyId: id('co'),
    sector: ids(SECTORS),
    stage: ids(STAGES),
    amountUsd: z.number().check(z.positive()),
    announcedOn: day,
    leadFundId: id('fund'),
    investorIds: z.array(id('fund')).check(z.minLength(1)),
  }),
};
type LineKind = keyof typeof LINE_SCHEMAS;
type Parsed = { [K in LineKind]: z.output<(typeof LINE_SCHEMAS)[K]> }[LineKind];

export interface LineProblem {
  line: number;
  message: string;
}

export interface ImportOutcome {
  ok: boolean;
  problems: LineProblem[];
  counts: Record<string, number>;
  items: number;
}

/** Parses and validates every line; returns the records with their line numbers, or the problems. */
export function parseJsonLines(content: string): {
  records: { line: number; record: Parsed }[];
  problems: LineProblem[];
} {
  const records: { line: number; record: Parsed }[] = [];
  const problems: LineProblem[] = [];
  content.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push({ line, message: 'not valid JSON' });
      return;
    }
    const kind = (value as { kind?: unknown })?.kind;
    const schema = typeof kind === 'string' ? LINE_SCHEMAS[kind as LineKind] : undefined;
    if (!schema) {
      problems.push({ line, message: `kind must be one of ${Object.keys(LINE_SCHEMAS).join(', ')}` });
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ line, message: `${issue.path.join('.') || 'record'}: ${issue.message}` });
      return;
    }
    records.push({ line, record: parsed.data as Parsed });
  });
  return { records, problems };
}

const KIND_OF_PREFIX: Record<string, EntityKind> = {
  fund: 'fund',
  co: 'company',
  per: 'person',
  kol: 'kol',
  bld: 'builder',
};
const kindOfId = (entityId: string): EntityKind | undefined => own(KIND_OF_PREFIX, entityId.split('-')[0]);

/**
 * Validates the whole file (lines, duplicates, references), then writes it. Nothing is written when
 * any line has a problem.
 */
export async function importCuratedRecords(content: string): Promise<ImportOutcome> {
  const { records, problems } = parseJsonLines(content);
  const seen = new Map<string, number>();
  for (const { line, record } of records) {
    if (seen.has(record.id))
      problems.push({ line, message: `duplicate id ${record.id} (first on line ${seen.get(record.id)})` });
    else seen.set(record.id, line);
  }
  const inFile = new Map(records.map(({ record }) => [record.id, record]));
  // Everything referenced but not in the file must already be stored.
  const referenced = new Set<string>();
  for (const { record } of records) {
    if (record.kind === 'person') referenced.add(record.companyId);
    if (record.kind === 'builder' && record.companyId) referenced.add(record.companyId);
    if (record.kind === 'round')
      for (const x of [record.companyId, record.leadFundId, ...record.investorIds]) referenced.add(x);
  }
  // Existing versions of the records in the file too: their stale index entries are removed.
  for (const { record } of records) if (record.kind !== 'round') referenced.add(record.id);
  const stored = new Map<string, CuratedEntity>();
  const byKind = new Map<EntityKind, string[]>();
  for (const ref of referenced) {
    const kind = kindOfId(ref);
    if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), ref]);
  }
  for (const [kind, list] of byKind) for (const [k, v] of await getCuratedEntities(kind, list)) stored.set(k, v);
  const exists = (ref: string) => {
    const kindInFile = inFile.get(ref)?.kind;
    return (kindInFile !== undefined && kindInFile !== 'round') || stored.has(ref);
  };
  for (const { line, record } of records) {
    const refs =
      record.kind === 'person'
        ? [record.companyId]
        : record.kind === 'builder'
          ? [record.companyId].filter((x): x is string => !!x)
          : record.kind === 'round'
            ? [record.companyId, record.leadFundId, ...record.investorIds]
            : [];
    for (const ref of new Set(refs))
      if (!exists(ref)) problems.push({ line, message: `refers to ${ref}, which is neither in the file nor stored` });
    if (record.kind === 'round' && !record.investorIds.includes(record.leadFundId))
      problems.push({ line, message: 'investorIds must include leadFundId' });
    if (record.kind === 'fund' && record.minChequeUsd > record.maxChequeUsd)
      problems.push({ line, message: 'minChequeUsd is larger than maxChequeUsd' });
  }
  if (problems.length) return { ok: false, problems: problems.sort((a, b) => a.line - b.line), counts: {}, items: 0 };

  const entities = buildEntities(
    records.map((r) => r.record),
    stored,
  );
  const items = entities.flatMap(curatedItemsFor);
  const newKeys = new Set(items.map((i) => `${i.pk}|${i.sk}`));
  const stale = [...entities]
    .flatMap((e) => {
      const before = stored.get(e.id);
      return before ? curatedItemsFor(before) : [];
    })
    .filter((i) => !newKeys.has(`${i.pk}|${i.sk}`))
    .map((i) => ({ pk: i.pk, sk: i.sk }));
  // Profiles first (each shard they fall in written once, under its version), then the facet copies.
  await putCuratedEntities(entities);
  await putCuratedItems(items);
  await deleteCuratedKeys(stale);
  // The funds' portfolios follow their companies and contacts, earlier versions included (a person who
  // moved was their former company's contact), read back as stored now.
  await refreshPortfolios(
    [...entities, ...entities.flatMap((e) => stored.get(e.id) ?? [])],
    new Map([...stored, ...entities.map((e) => [e.id, e] as const)]),
  );
  forgetCachedFacets();
  const counts: Record<string, number> = {};
  for (const { record } of records) counts[record.kind] = (counts[record.kind] ?? 0) + 1;
  return { ok: true, problems: [], counts, items: items.length };
}

/** Turns validated lines into entities, filling derived fields and folding rounds into their funds and companies. */
function buildEntities(lines: Parsed[], stored: Map<string, CuratedEntity>): CuratedEntity[] {
  const out = new Map<string, CuratedEntity>();
  const lookup = (ref: string) => out.get(ref) ?? stored.get(ref);
  const sectorText = (s: string[]) => s.map((x) => termLabel(SECTORS, x)).join(', ');
  for (const r of lines) {
    if (r.kind === 'fund') {
      const domain = r.domain;
      const existing = stored.get(r.id) as CuratedFund | undefined;
      out.set(r.id, {
        ...r,
        domain,
        website: r.website ?? `https://${domain}`,
        location: r.location ?? termLabel(JURISDICTIONS, r.jurisdiction),
        description: r.description ?? `${r.name} invests in ${sectorText(r.sectors)}.`,
        rounds: existing?.rounds ?? [],
      } satisfies CuratedFund);
    } else if (r.kind === 'company') {
      const domain = r.domain;
      const existing = stored.get(r.id) as CuratedCompany | undefined;
      out.set(r.id, {
        ...r,
        domain,
        website: r.website ?? `https://${domain}`,
        emailPattern: r.emailPattern as CuratedCompany['emailPattern'],
        tagline: r.tagline ?? `${sectorText(r.sectors)} company.`,
        description: r.description ?? `${r.name} builds ${sectorText(r.sectors)} products.`,
        rounds: existing?.rounds ?? [],
      } satisfies CuratedCompany);
    } else if (r.kind === 'kol') {
      out.set(r.id, {
        ...r,
        description: r.description ?? `${r.xBioLabel} covering ${sectorText(r.sectors)}.`,
      } satisfies CuratedKol);
    }
  }
  for (const r of lines) {
    if (r.kind === 'person') {
      const org = lookup(r.companyId) as CuratedCompany | CuratedFund;
      out.set(r.id, {
        ...r,
        fullName: `${r.firstName} ${r.lastName}`,
        organizationKind: org.kind,
        companyName: org.name,
        companyDomain: org.domain,
        location: r.location ?? org.location,
        bio: r.bio ?? `${r.role} at ${org.name}.`,
        interests: r.interests ?? [...org.sectors],
      } satisfies CuratedPerson);
    } else if (r.kind === 'builder') {
      const company = r.companyId ? (lookup(r.companyId) as CuratedCompany) : undefined;
      const wins = r.hackathons.filter((h) => h.won);
      out.set(r.id, {
        ...r,
        companyName: company?.name ?? null,
        hackathons: [...r.hackathons].sort((a, b) => b.year - a.year),
        totalHackathonsAttended: r.hackathons.length,
        totalHackathonsWon: wins.length,
        totalWinningsUsd: wins.reduce((s, h) => s + h.prizeUsd, 0),
        description:
          r.description ?? `${termLabel(BUILDER_CATEGORIES, r.category)} building with ${r.skills.join(', ')}.`,
      } satisfies CuratedBuilder);
    }
  }
  for (const r of lines) {
    if (r.kind !== 'round') continue;
    const company = structuredClone(lookup(r.companyId)) as CuratedCompany;
    const investors = r.investorIds.map((fid) => lookup(fid) as CuratedFund);
    const lead = lookup(r.leadFundId) as CuratedFund;
    const round: CuratedRound = {
      id: r.id,
      companyId: company.id,
      companyName: company.name,
      sector: r.sector,
      stage: r.stage,
      amountUsd: r.amountUsd,
      announcedOn: r.announcedOn,
      leadFundId: lead.id,
      leadFundName: lead.name,
      investors: [lead, ...investors.filter((i) => i.id !== lead.id)].map((i) => ({ id: i.id, name: i.name })),
    };
    const withRound = <T extends CuratedCompany | CuratedFund>(e: T): T => ({
      ...e,
      rounds: [round, ...e.rounds.filter((x) => x.id !== round.id)].sort((a, b) =>
        b.announcedOn.localeCompare(a.announcedOn),
      ),
    });
    out.set(company.id, withRound(company));
    for (const fund of investors) out.set(fund.id, withRound(structuredClone(lookup(fund.id)) as CuratedFund));
  }
  return [...out.values()];
}
