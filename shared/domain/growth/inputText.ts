/**
 * Turns pasted text into input assets: a CSV (with or without a header row) or a plain list of
 * domains and e-mail addresses. Pure; normalisation and de-duplication happen afterwards
 * (normalize.ts), so this only decides which value is which field.
 */
import { own } from '#shared/dictionary';
import { ValidationError } from '#shared/domain/errors';
import type { InputCompany, InputContact } from './normalize';
import { hasHttpScheme, looksLikeDomainOrUrl, looksLikeEmail, mentionsLinkedin, stripWrappers } from './valueShapes';

type Field = keyof InputCompany | keyof InputContact;

/** Header spellings people paste, mapped to our field names (compared lower-cased, without punctuation). */
const HEADER_ALIASES: Record<string, Field> = {
  company: 'company_name',
  companyname: 'company_name',
  company_name: 'company_name',
  organization: 'company_name',
  organisation: 'company_name',
  account: 'company_name',
  accountname: 'company_name',
  domain: 'domain',
  companydomain: 'domain',
  website: 'website',
  url: 'website',
  site: 'website',
  companywebsite: 'website',
  homepage: 'website',
  email: 'email',
  emailaddress: 'email',
  mail: 'email',
  workemail: 'email',
  name: 'full_name',
  fullname: 'full_name',
  contact: 'full_name',
  contactname: 'full_name',
  firstname: 'first_name',
  first: 'first_name',
  givenname: 'first_name',
  lastname: 'last_name',
  last: 'last_name',
  surname: 'last_name',
  familyname: 'last_name',
  title: 'title',
  jobtitle: 'title',
  position: 'title',
  role: 'title',
  linkedin: 'linkedin_url',
  linkedinurl: 'linkedin_url',
  linkedinprofile: 'linkedin_url',
};

const CONTACT_FIELDS = new Set<Field>(['email', 'full_name', 'first_name', 'last_name', 'title', 'linkedin_url']);

/*
 * Every pattern below that reads the pasted text must run in linear time: value
 * shapes are hand-written scanners (valueShapes.ts); the remaining regular expressions are single
 * character-class runs (`[\s,;]+`, `\r?\n`), which cannot backtrack.
 */
const LINES = /\r?\n/;
const LIST_SEPARATORS = /[\s,;]+/;

/** Pasted text with no value at all (only separators, quotes or line breaks): the caller meant to paste something. */
const noValues = () =>
  new ValidationError('input_text holds only separators and no value; paste domains, e-mail addresses or CSV rows.', [
    { path: 'input_text', message: 'Contains no value, only separators' },
  ]);

export interface ParsedInputText {
  format: 'csv' | 'list' | 'empty';
  companies: InputCompany[];
  contacts: InputContact[];
  /** Column index to field, as detected (CSV only). */
  columns: Record<string, string>;
  /** Lines or cells that could not be used, with why. */
  skipped: { line: number; reason: string }[];
}

/** RFC 4180 rows: quoted cells may hold the delimiter, doubled quotes and line breaks. */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  // Whether the cell has anything but white space so far: tracked, not re-read with trim() at every quote.
  let blank = true;
  let quoted = false;
  const add = (ch: string) => {
    cell += ch;
    if (blank && ch.trim() !== '') blank = false;
  };
  const endCell = () => {
    row.push(cell.trim());
    cell = '';
    blank = true;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        add('"');
        i++;
      } else if (ch === '"') quoted = false;
      else add(ch);
    } else if (ch === '"' && blank) {
      quoted = true;
      cell = '';
    } else if (ch === delimiter) {
      endCell();
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endCell();
      rows.push(row);
      row = [];
    } else add(ch);
  }
  endCell();
  rows.push(row);
  return rows.filter((r) => r.some((c) => c !== ''));
}

const headerToken = (cell: string) =>
  cell
    .toLowerCase()
    .replace(/[^a-z_]/g, '')
    .replace(/_/g, '');

function headerField(cell: string): Field | undefined {
  const token = headerToken(cell);
  return (
    own(HEADER_ALIASES, token) ??
    own(
      HEADER_ALIASES,
      cell
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
    )
  );
}

/** What a cell's content looks like, for files without a header row. */
function contentField(cell: string): Field | undefined {
  if (looksLikeEmail(cell)) return 'email';
  if (mentionsLinkedin(cell)) return 'linkedin_url';
  if (looksLikeDomainOrUrl(cell)) return hasHttpScheme(cell) ? 'website' : 'domain';
  return undefined;
}

/** A header row is one where most non-empty cells are known column names and none is a value like an e-mail. */
function detectHeader(first: string[]): Map<number, Field> | undefined {
  const mapped = new Map<number, Field>();
  first.forEach((cell, i) => {
    const field = headerField(cell);
    if (field && !contentField(cell) && ![...mapped.values()].includes(field)) mapped.set(i, field);
  });
  const filled = first.filter((c) => c !== '').length;
  return mapped.size > 0 && mapped.size * 2 >= filled ? mapped : undefined;
}

/** Without a header: each column takes the field most of its cells look like; a text column before any URL is the name. */
function inferColumns(rows: string[][]): Map<number, Field> {
  // One pass over the cells (not columns x rows: one wide line must not multiply every other line).
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  const votesByColumn = new Map<number, Map<Field, number>>();
  for (const r of rows) {
    r.forEach((cell, col) => {
      const f = cell ? contentField(cell) : undefined;
      if (!f) return;
      const votes = votesByColumn.get(col) ?? new Map<Field, number>();
      votes.set(f, (votes.get(f) ?? 0) + 1);
      votesByColumn.set(col, votes);
    });
  }
  const mapped = new Map<number, Field>();
  for (const [col, votes] of [...votesByColumn.entries()].sort((a, b) => a[0] - b[0])) {
    const best = [...votes.entries()].sort((a, b) => b[1] - a[1])[0];
    if (best && best[1] * 2 >= rows.length && ![...mapped.values()].includes(best[0])) mapped.set(col, best[0]);
  }
  let textColumn = 0;
  while (mapped.has(textColumn)) textColumn++;
  if (textColumn < width) {
    const hasContactColumn = [...mapped.values()].some((f) => CONTACT_FIELDS.has(f));
    mapped.set(textColumn, hasContactColumn ? 'full_name' : 'company_name');
  }
  return mapped;
}

const chooseDelimiter = (firstLine: string): string => {
  const counts = [',', ';', '\t', '|'].map((d) => [d, firstLine.split(d).length - 1] as const);
  return counts.sort((a, b) => b[1] - a[1])[0][1] > 0 ? counts[0][0] : ',';
};

function rowToAssets(row: string[], columns: Map<number, Field>): { company?: InputCompany; contact?: InputContact } {
  const values: Partial<Record<Field, string>> = {};
  for (const [i, field] of columns) if (row[i]) values[field] = row[i];
  const isContact = [...CONTACT_FIELDS].some((f) => values[f]);
  if (isContact) {
    const contact: InputContact = {};
    for (const [k, v] of Object.entries(values))
      (contact as Record<string, string>)[k === 'website' ? 'domain' : k] = v;
    return { contact };
  }
  const company: InputCompany = {};
  if (values.company_name) company.company_name = values.company_name;
  if (values.domain) company.domain = values.domain;
  if (values.website) company.website = values.website;
  return Object.keys(company).length > 0 ? { company } : {};
}

function parseCsv(text: string): ParsedInputText {
  const firstLine = text.split(LINES).find((l) => l.trim() !== '') ?? '';
  const rows = parseDelimited(text, chooseDelimiter(firstLine));
  if (rows.length === 0) throw noValues();
  const header = detectHeader(rows[0] ?? []);
  const body = header ? rows.slice(1) : rows;
  const columns = header ?? inferColumns(body);
  const out: ParsedInputText = { format: 'csv', companies: [], contacts: [], columns: {}, skipped: [] };
  for (const [i, f] of columns) out.columns[String(i)] = f;
  body.forEach((row, index) => {
    const { company, contact } = rowToAssets(row, columns);
    const line = index + (header ? 2 : 1);
    if (contact) out.contacts.push(contact);
    else if (company) out.companies.push(company);
    else out.skipped.push({ line, reason: 'no usable value in this row' });
  });
  return out;
}

/** One value per line, or separated by commas, semicolons or spaces: domains, URLs and e-mail addresses. */
function parseList(text: string): ParsedInputText {
  const out: ParsedInputText = { format: 'list', companies: [], contacts: [], columns: {}, skipped: [] };
  text.split(LINES).forEach((lineText, index) => {
    for (const token of lineText.split(LIST_SEPARATORS).filter(Boolean)) {
      const value = stripWrappers(token);
      const field = contentField(value);
      if (field === 'email') out.contacts.push({ email: value });
      else if (field === 'linkedin_url') out.contacts.push({ linkedin_url: value });
      else if (field) out.companies.push({ [field]: value });
      else out.skipped.push({ line: index + 1, reason: `not a domain or e-mail address: ${value.slice(0, 80)}` });
    }
  });
  if (out.companies.length + out.contacts.length + out.skipped.length === 0) throw noValues();
  return out;
}

/**
 * A text is a list when no line carries more than one value that is not a domain or an e-mail
 * (so "acme.com, globex.com" is a list, "Acme, acme.com" is a CSV row).
 */
function looksLikeList(text: string): boolean {
  const lines = text.split(LINES).filter((l) => l.trim() !== '');
  return lines.every((line) =>
    line
      .split(LIST_SEPARATORS)
      .filter(Boolean)
      .every((t) => contentField(stripWrappers(t)) !== undefined),
  );
}

export function parseInputText(raw: string | undefined): ParsedInputText {
  // Spreadsheet exports often start with a byte-order mark.
  const text = raw?.replace(/^\uFEFF/, '');
  if (!text || text.trim() === '') return { format: 'empty', companies: [], contacts: [], columns: {}, skipped: [] };
  return looksLikeList(text) ? parseList(text) : parseCsv(text);
}
