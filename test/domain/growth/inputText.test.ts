import { describe, expect, it } from 'vitest';
import { parseDelimited, parseInputText } from '#shared/domain/growth/inputText';

describe('parseInputText', () => {
  it('reads a CSV with a header row, mapping the column names people use', () => {
    const parsed = parseInputText('Company Name,Website\nAcme Inc,https://acme.com\n"Globex, Corp",globex.io\n');
    expect(parsed.format).toBe('csv');
    expect(parsed.columns).toEqual({ '0': 'company_name', '1': 'website' });
    expect(parsed.companies).toEqual([
      { company_name: 'Acme Inc', website: 'https://acme.com' },
      { company_name: 'Globex, Corp', website: 'globex.io' },
    ]);
    expect(parsed.contacts).toEqual([]);
  });

  it('treats column names inherited from Object.prototype as unknown columns', () => {
    const parsed = parseInputText('__proto__,constructor,domain,company\nx,y,acme.io,Acme\n');
    expect(parsed.columns).toEqual({ '2': 'domain', '3': 'company_name' });
    expect(parsed.companies).toEqual([{ company_name: 'Acme', domain: 'acme.io' }]);
  });

  it('reads contacts from a semicolon CSV whose header says first name, last name, e-mail, job title', () => {
    const parsed = parseInputText(
      'First Name;Last Name;E-mail;Job Title;Company\nAda;Lovelace;ada@acme.com;CTO;Acme\n',
    );
    expect(parsed.columns).toEqual({
      '0': 'first_name',
      '1': 'last_name',
      '2': 'email',
      '3': 'title',
      '4': 'company_name',
    });
    expect(parsed.contacts).toEqual([
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.com', title: 'CTO', company_name: 'Acme' },
    ]);
  });

  it('infers the columns of a CSV without a header from what the cells look like', () => {
    const parsed = parseInputText('Acme,acme.com\nGlobex,globex.io\n');
    expect(parsed.format).toBe('csv');
    expect(parsed.columns).toEqual({ '0': 'company_name', '1': 'domain' });
    expect(parsed.companies).toEqual([
      { company_name: 'Acme', domain: 'acme.com' },
      { company_name: 'Globex', domain: 'globex.io' },
    ]);
  });

  it('treats a header-less name + e-mail file as contacts', () => {
    const parsed = parseInputText('Ada Lovelace,ada@acme.com\nAlan Turing,alan@bletchley.org\n');
    expect(parsed.contacts).toEqual([
      { full_name: 'Ada Lovelace', email: 'ada@acme.com' },
      { full_name: 'Alan Turing', email: 'alan@bletchley.org' },
    ]);
  });

  it('reads a plain list of domains and e-mail addresses, one per line or separated by commas', () => {
    const parsed = parseInputText(
      'acme.com\nhttps://www.globex.io/about, <ada@acme.com>\n\nbob@initech.com; initech.com',
    );
    expect(parsed.format).toBe('list');
    expect(parsed.companies).toEqual([
      { domain: 'acme.com' },
      { website: 'https://www.globex.io/about' },
      { domain: 'initech.com' },
    ]);
    expect(parsed.contacts).toEqual([{ email: 'ada@acme.com' }, { email: 'bob@initech.com' }]);
  });

  it('reports rows it cannot use, with their line numbers', () => {
    const parsed = parseInputText('company,domain,notes\nAcme,acme.com,x\n,,just a note\n');
    expect(parsed.companies).toEqual([{ company_name: 'Acme', domain: 'acme.com' }]);
    expect(parsed.skipped).toEqual([{ line: 3, reason: 'no usable value in this row' }]);
  });

  it('ignores the byte-order mark of spreadsheet exports', () => {
    expect(parseInputText('\uFEFFacme.com\nglobex.io').companies).toEqual([
      { domain: 'acme.com' },
      { domain: 'globex.io' },
    ]);
    expect(parseInputText('\uFEFFDomain\r\nacme.com\r\n').columns).toEqual({ '0': 'domain' });
  });

  it('is empty for no text', () => {
    expect(parseInputText(undefined).format).toBe('empty');
    expect(parseInputText('  \n ').companies).toEqual([]);
  });
});

describe('parseDelimited', () => {
  it('keeps delimiters, doubled quotes and line breaks inside quoted cells', () => {
    expect(parseDelimited('a,"b, ""c""\nd",e\r\nf,g,h', ',')).toEqual([
      ['a', 'b, "c"\nd', 'e'],
      ['f', 'g', 'h'],
    ]);
  });
});
