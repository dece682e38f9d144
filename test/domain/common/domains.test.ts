import { describe, expect, it } from 'vitest';
import { emailDomain, normaliseDomain } from '#shared/hostNames';
import { companyRows, contactRows } from '#shared/domain/jobs/inputs';
import { ValidationError } from '#shared/http/errors';

describe('normaliseDomain', () => {
  const cases: [string, string | undefined][] = [
    ['https://www.X.io/about', 'x.io'],
    ['http://WWW.Nebulalabs.IO:8080/path?q=1#top', 'nebulalabs.io'],
    ['nebulalabs.io', 'nebulalabs.io'],
    ['  app.nebulalabs.io.  ', 'app.nebulalabs.io'],
    ['www2.example.org', 'example.org'],
    ['https://user:pw@sub.domain.co.uk/x', 'sub.domain.co.uk'],
    ['https://bücher.de', 'xn--bcher-kva.de'],
    ['localhost', undefined],
    ['not a domain', undefined],
    ['http://', undefined],
    ['', undefined],
    ['1.2.3.4', undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => expect(normaliseDomain(input)).toBe(expected));
  }

  it('takes the domain of an e-mail address', () => {
    expect(emailDomain('Ada.Park@NebulaLabs.io')).toBe('nebulalabs.io');
    expect(emailDomain('no-at-sign')).toBeUndefined();
  });
});

describe('input rows', () => {
  it('normalises company domains from the domain or the website, keeping the input position', () => {
    const rows = companyRows([
      { company_name: 'Nebula', website: 'https://www.nebulalabs.io/team' },
      { company_name: 'Quiet', domain: 'QuietProtocol.xyz' },
    ]);
    expect(rows.map((r) => [r.input_index, r.domain])).toEqual([
      [0, 'nebulalabs.io'],
      [1, 'quietprotocol.xyz'],
    ]);
  });

  it('names every company without a usable domain in one 400', () => {
    let error: ValidationError | undefined;
    try {
      companyRows([
        { company_name: 'A', domain: 'a.io' },
        { company_name: 'B', website: 'nope' },
        { company_name: 'C' },
      ]);
    } catch (err) {
      error = err as ValidationError;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error!.details as { path: string }[]).map((d) => d.path)).toEqual([
      'input_assets.companies.1',
      'input_assets.companies.2',
    ]);
  });

  it('builds contact rows: lower-cased e-mail, domain from the e-mail when none is given, full name from its parts', () => {
    const [row] = contactRows([{ first_name: 'Ada', last_name: 'Park', email: 'Ada.Park@NebulaLabs.io' }]);
    expect(row).toMatchObject({
      row_id: 'in-0',
      full_name: 'Ada Park',
      email: 'ada.park@nebulalabs.io',
      domain: 'nebulalabs.io',
      source: 'input',
    });
  });
});
