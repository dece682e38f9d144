import { describe, expect, it } from 'vitest';
import {
  BUILDER_CATEGORIES,
  ECOSYSTEMS,
  FUND_TYPES,
  JURISDICTIONS,
  PLATFORMS,
  ROLE_FAMILIES,
  SECTORS,
  STAGES,
  type Term,
} from '#shared/domain/curated/taxonomy';
import {
  BUILDER_CATEGORY_SYNONYMS,
  ECOSYSTEM_SYNONYMS,
  FILLER_WORDS,
  FUND_TYPE_SYNONYMS,
  JURISDICTION_SYNONYMS,
  PLATFORM_SYNONYMS,
  ROLE_FAMILY_SYNONYMS,
  SECTOR_SYNONYMS,
  STAGE_SYNONYMS,
  type SynonymTable,
} from '#shared/domain/curated/slotSynonyms';
import { buildVocabulary, compactKey, editDistance, matchTerms, singular } from '#shared/domain/intelligence/termMatch';
import { PACKAGES } from '#shared/domain/intelligence/packages';
import { checkSlots } from '#shared/domain/intelligence/slots';

const TABLES: [string, readonly Term[], SynonymTable<string>][] = [
  ['sector', SECTORS, SECTOR_SYNONYMS],
  ['stage', STAGES, STAGE_SYNONYMS],
  ['fund type', FUND_TYPES, FUND_TYPE_SYNONYMS],
  ['jurisdiction', JURISDICTIONS, JURISDICTION_SYNONYMS],
  ['platform', PLATFORMS, PLATFORM_SYNONYMS],
  ['ecosystem', ECOSYSTEMS, ECOSYSTEM_SYNONYMS],
  ['builder category', BUILDER_CATEGORIES, BUILDER_CATEGORY_SYNONYMS],
  ['role family', ROLE_FAMILIES, ROLE_FAMILY_SYNONYMS],
];
const categories = buildVocabulary(BUILDER_CATEGORIES, BUILDER_CATEGORY_SYNONYMS, FILLER_WORDS);
const ENGINEERS = ['smart-contract-engineer', 'protocol-engineer', 'full-stack-dapp', 'zk-engineer', 'data-engineer'];

describe('the synonyms table', () => {
  it.each(TABLES)(
    '%s: every entry names ids of its taxonomy, and no phrase is already a taxonomy spelling or a filler',
    (_name, terms, synonyms) => {
      const ids = new Set(terms.map((t) => t.id));
      const taxonomyKeys = new Set(terms.flatMap((t) => [t.id, t.label, ...t.synonyms].map(compactKey)));
      for (const [phrase, named] of synonyms) {
        expect(named.length, phrase).toBeGreaterThan(0);
        expect(
          named.filter((id) => !ids.has(id)),
          phrase,
        ).toEqual([]);
        expect(taxonomyKeys.has(compactKey(phrase)), `${phrase} is already in the taxonomy`).toBe(false);
        expect(FILLER_WORDS.includes(phrase), `${phrase} is a filler word`).toBe(false);
      }
    },
  );

  it.each(TABLES)(
    '%s: a spelling names several terms only where the synonyms table says so',
    (_name, terms, synonyms) => {
      const vocabulary = buildVocabulary(terms, synonyms, FILLER_WORDS);
      const intended = new Set(
        synonyms.filter(([, ids]) => ids.length > 1).flatMap(([p]) => [compactKey(p), singular(compactKey(p))]),
      );
      const ambiguous = [...vocabulary.index].filter(([key, ids]) => ids.length > 1 && !intended.has(key));
      expect(ambiguous).toEqual([]);
    },
  );

  it.each(TABLES)(
    '%s: every term is reached by its id, its label and each of its synonyms',
    (_name, terms, synonyms) => {
      const vocabulary = buildVocabulary(terms, synonyms, FILLER_WORDS);
      for (const t of terms) {
        for (const phrase of [t.id, t.label, ...t.synonyms])
          expect(matchTerms(vocabulary, phrase), phrase).toEqual({ found: true, ids: [t.id] });
      }
    },
  );
});

describe('matchTerms', () => {
  it.each([
    ['developer', ENGINEERS],
    ['Developers', ENGINEERS],
    ['ENGINEER', ENGINEERS],
    ['solidity dev', ['smart-contract-engineer']],
    ['Solidity-Devs', ['smart-contract-engineer']],
    ['senior solidity developers', ['smart-contract-engineer']],
    ['designer', ['full-stack-dapp']],
    ['UI/UX designers', ['full-stack-dapp']],
    ['marketers', ['devrel']],
    ['web3 marketer', ['devrel']],
    ['full stack', ['full-stack-dapp']],
    ['fullstack', ['full-stack-dapp']],
    ['smart-contract-engineer, protocol-engineer', ['smart-contract-engineer', 'protocol-engineer']],
    ['auditors and ZK engineers', ['zk-engineer', 'security-researcher']],
  ])('%s → %j', (text, ids) => {
    expect(matchTerms(categories, text)).toEqual({ found: true, ids });
  });

  it('handles case, plurals, hyphens and spaces in the other vocabularies', () => {
    const sectors = buildVocabulary(SECTORS, SECTOR_SYNONYMS, FILLER_WORDS);
    const stages = buildVocabulary(STAGES, STAGE_SYNONYMS, FILLER_WORDS);
    expect(matchTerms(sectors, 'Real World Assets')).toEqual({ found: true, ids: ['rwa'] });
    expect(matchTerms(sectors, 'Layer-2s')).toEqual({ found: true, ids: ['layer2'] });
    expect(matchTerms(stages, 'Pre Seed')).toEqual({ found: true, ids: ['pre-seed'] });
    expect(matchTerms(stages, 'Series B+')).toEqual({ found: true, ids: ['series-b-plus'] });
    expect(matchTerms(stages, 'early-stage')).toEqual({ found: true, ids: ['pre-seed', 'seed'] });
  });

  it('refuses a value with a word that names nothing, suggesting what the other words named or the nearest spellings', () => {
    expect(matchTerms(categories, 'banana developer')).toEqual({ found: false, suggestions: ENGINEERS });
    expect(matchTerms(categories, 'smart contrct enginer')).toEqual({
      found: false,
      suggestions: expect.arrayContaining(['smart-contract-engineer']),
    });
    const nearest = matchTerms(categories, 'secruity researcher');
    expect(nearest.found === false && nearest.suggestions[0]).toBe('security-researcher');
    expect(matchTerms(categories, 'the senior')).toMatchObject({ found: false });
    expect(matchTerms(categories, '')).toMatchObject({ found: false });
  });

  it('treats names inherited from Object.prototype as unknown words', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(matchTerms(categories, word)).toMatchObject({ found: false });
  });

  it('runs in linear time on adversarial input', () => {
    const time = (text: string) => {
      const start = performance.now();
      for (let i = 0; i < 20; i++) matchTerms(categories, text);
      return performance.now() - start;
    };
    const benign = 'solidity developer '.repeat(500);
    const hostile = ['a-'.repeat(5000), '+'.repeat(10000), 'é'.repeat(10000), 'developer'.repeat(1100)];
    const base = time(benign);
    for (const text of hostile) expect(time(text)).toBeLessThan(Math.max(base * 20, 200));
  });

  it('measures edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('taxonomy slots', () => {
  const builders = PACKAGES['builder-discovery-v1'];
  const people = PACKAGES['company-people-discovery-v1'];
  const kols = PACKAGES['kol-discovery-v1'];
  const vc = PACKAGES['vc-shortlist-v1'];

  it('keeps several builder types or role families in one canonical string that reads back to itself', () => {
    const check = checkSlots(builders, { category: 'Developers' });
    expect(check.slots.category).toBe(ENGINEERS.join(', '));
    expect(checkSlots(builders, { category: check.slots.category }).slots.category).toBe(check.slots.category);
    expect(checkSlots(people, { company_name: 'x', role_focus: 'designers and marketers' }).slots.role_focus).toBe(
      'product, marketing',
    );
  });

  it('asks for one value where the slot holds one and the word names several', () => {
    const check = checkSlots(vc, { sector_focus: 'defi', stage: 'early stage' });
    expect(check.issues).toEqual([]);
    expect(check.misunderstood).toEqual([
      {
        path: 'slots.stage',
        message: expect.stringMatching(/pre-seed, seed; choose one/),
        suggestions: ['pre-seed', 'seed'],
      },
    ]);
  });

  it('refuses role words and platform words that name nothing, with suggestions', () => {
    expect(checkSlots(people, { company_name: 'x', role_focus: 'astronaut' }).misunderstood[0]).toMatchObject({
      path: 'slots.role_focus',
      suggestions: expect.any(Array),
    });
    expect(checkSlots(kols, { sector_focus: 'defi', platform: 'youtub' }).misunderstood[0]).toMatchObject({
      path: 'slots.platform',
      suggestions: expect.arrayContaining(['youtube']),
    });
    expect(checkSlots(kols, { sector_focus: 'defi', platform: 'Twitter' }).slots.platform).toBe('x');
  });
});
