import { describe, expect, it } from 'vitest';
import {
  capAssets,
  normalizeAssets,
  normalizeEmail,
  normalizeLinkedinUrl,
  settleCompanyDomains,
} from '#shared/domain/growth/normalize';
import { normaliseDomain as normalizeDomain } from '#shared/hostNames';

describe('canonical forms', () => {
  it.each([
    ['https://www.Acme.com/about?x=1', 'acme.com'],
    ['HTTP://acme.com:8080', 'acme.com'],
    ['www2.globex.io.', 'globex.io'],
    ['  sub.initech.co.uk/path ', 'sub.initech.co.uk'],
    ['ada@acme.com', 'acme.com'],
  ])('domain %s → %s', (input, expected) => expect(normalizeDomain(input)).toBe(expected));

  it.each(['not a domain', 'localhost', 'http://', '', 'acme'])('rejects %j as a domain', (input) =>
    expect(normalizeDomain(input)).toBeUndefined(),
  );

  it('lower-cases e-mail addresses and rejects malformed ones', () => {
    expect(normalizeEmail(' Ada.Lovelace@ACME.com ')).toBe('ada.lovelace@acme.com');
    expect(normalizeEmail('mailto:bob@initech.com')).toBe('bob@initech.com');
    expect(normalizeEmail('bob@')).toBeUndefined();
    expect(normalizeEmail('two words@acme.com')).toBeUndefined();
  });

  it('reduces LinkedIn URLs to the profile path', () => {
    expect(normalizeLinkedinUrl('HTTPS://LinkedIn.com/in/Ada-L/?trk=x')).toBe('https://www.linkedin.com/in/ada-l');
    expect(normalizeLinkedinUrl('https://example.com/in/ada')).toBeUndefined();
  });
});

describe('normalizeAssets', () => {
  it('merges companies that are the same domain however written, keeping the first and filling its gaps', () => {
    const out = normalizeAssets(
      [
        { domain: 'https://www.acme.com/' },
        { company_name: ' Acme  Inc ', website: 'acme.com' },
        { company_name: 'Globex', domain: 'globex.io' },
      ],
      [],
    );
    expect(out.assets.companies).toEqual([
      { domain: 'acme.com', company_name: 'Acme Inc', website: 'acme.com' },
      { company_name: 'Globex', domain: 'globex.io' },
    ]);
    expect(out.duplicatesRemoved.companies).toBe(1);
  });

  it('drops a name-only company when the same name comes with a domain', () => {
    const out = normalizeAssets([{ company_name: 'Acme' }, { company_name: 'acme', domain: 'acme.com' }], []);
    expect(out.assets.companies).toEqual([{ company_name: 'acme', domain: 'acme.com' }]);
    expect(out.duplicatesRemoved.companies).toBe(1);
  });

  it('de-duplicates contacts by e-mail, then LinkedIn, then name at the same domain', () => {
    const out = normalizeAssets(
      [],
      [
        { email: 'ADA@acme.com' },
        { email: 'ada@acme.com', full_name: 'Ada Lovelace', title: 'CTO' },
        { linkedin_url: 'linkedin.com/in/alan', full_name: 'Alan Turing' },
        { linkedin_url: 'https://www.linkedin.com/in/Alan/', company_name: 'Bletchley' },
        { full_name: 'Grace Hopper', domain: 'navy.mil' },
        { full_name: 'grace  hopper', domain: 'https://navy.mil' },
      ],
    );
    expect(out.assets.contacts).toEqual([
      {
        email: 'ada@acme.com',
        domain: 'acme.com',
        full_name: 'Ada Lovelace',
        first_name: 'Ada',
        last_name: 'Lovelace',
        title: 'CTO',
      },
      {
        full_name: 'Alan Turing',
        first_name: 'Alan',
        last_name: 'Turing',
        linkedin_url: 'https://www.linkedin.com/in/alan',
        company_name: 'Bletchley',
      },
      { full_name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper', domain: 'navy.mil' },
    ]);
    expect(out.duplicatesRemoved.contacts).toBe(3);
  });

  it('takes a contact domain from the e-mail, except for free mailbox providers', () => {
    const out = normalizeAssets([], [{ email: 'ada@acme.com' }, { email: 'bob@gmail.com' }]);
    expect(out.assets.contacts).toEqual([{ email: 'ada@acme.com', domain: 'acme.com' }, { email: 'bob@gmail.com' }]);
  });

  it('builds the full name from first and last names', () => {
    const out = normalizeAssets([], [{ first_name: ' Ada ', last_name: 'Lovelace', domain: 'acme.com' }]);
    expect(out.assets.contacts[0].full_name).toBe('Ada Lovelace');
  });

  it('rejects records it cannot identify, saying why', () => {
    const out = normalizeAssets([{ website: 'not a site' }, {}], [{ email: 'broken@' }, { title: 'CEO' }]);
    expect(out.assets).toEqual({ companies: [], contacts: [] });
    expect(out.rejected.map((r) => `${r.kind}:${r.reason}`)).toEqual([
      'company:invalid_domain',
      'company:no_identifier',
      'contact:invalid_email',
      'contact:no_identifier',
    ]);
  });
});

describe('settleCompanyDomains', () => {
  it('gives name-only companies the curated domain, merges them, and reports the rest as no_domain', () => {
    const draft = normalizeAssets(
      [{ company_name: 'Acme' }, { domain: 'acme.com' }, { company_name: 'Nowhere Ltd' }],
      [],
    );
    const out = settleCompanyDomains(draft, new Map([['acme', 'acme.com']]));
    expect(out.assets.companies).toEqual([{ company_name: 'Acme', domain: 'acme.com' }]);
    expect(out.rejected).toEqual([{ kind: 'company', input: '{"company_name":"Nowhere Ltd"}', reason: 'no_domain' }]);
    expect(out.duplicatesRemoved.companies).toBe(1);
  });
});

describe('capAssets', () => {
  it('keeps what one run takes and reports the rest as over_limit', () => {
    const draft = normalizeAssets(
      [{ domain: 'a.com' }, { domain: 'b.com' }, { domain: 'c.com' }],
      [{ email: 'x@a.com' }, { email: 'y@a.com' }],
    );
    const out = capAssets(draft, { companies: 2, contacts: 1 });
    expect(out.assets).toEqual({
      companies: [{ domain: 'a.com' }, { domain: 'b.com' }],
      contacts: [{ email: 'x@a.com', domain: 'a.com' }],
    });
    expect(out.rejected.map((r) => `${r.kind}:${r.reason}:${r.input}`)).toEqual([
      'company:over_limit:{"domain":"c.com"}',
      'contact:over_limit:{"email":"y@a.com","domain":"a.com"}',
    ]);
  });
});
