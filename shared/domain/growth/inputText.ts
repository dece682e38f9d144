/**
 * Turns pasted text into input assets: a CSV (with or without a header row) or a plain list of
 * domains and e-mail addresses. Pure; normalisation and de-duplication happen afterwards
 * (normalize.ts), so this only decides which value is which field.
 */
import { own } from '../../dictionary';
import type { InputCompany, InputContact } from './normalize';

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

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const DOMAIN_OR_URL = /^(https?:\/\/)?(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/\S*)?$/i;
const LINKEDIN = /linkedin\.com\//i;

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
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === delimiter) {
      row.push(cell.trim());
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell.trim());
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  row.push(cell.trim());
  rows.push(row);
  return rows.filter((r) => r.some((c) => c !== ''));
}

const headerToken = (cell: string) => cell.toLowerCase().replace(/[^a-z_]/g, '').replace(/_/g, '');

function headerField(cell: string): Field | undefined {
  const token = headerToken(cell);
  return own(HEADER_ALIASES, token) ?? own(HEADER_ALIASES, cell.trim().toLowerCase().replace(/[\s-]+/g, '_'));
}

/** What a cell's content looks like, for files without a header row. */
function contentField(cell: string): Field | undefined {
  if (EMAIL.test(cell)) return 'email';
  if (LINKEDIN.test(cell)) return 'linkedin_url';
  if (DOMAIN_OR_URL.test(cell)) return /^https?:\/\//i.test(cell) ? 'website' : 'domain';
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
  const width = Math.max(...rows.map((r) => r.length));
  const mapped = new Map<number, Field>();
  for (let col = 0; col < width; col++) {
    const votes = new Map<Field, number>();
    for (const r of rows) {
      const f = r[col] ? contentField(r[col]) : undefined;
      if (f) votes.set(f, (votes.get(f) ?? 0) + 1);
    }
    const best = [...votes.entries()].sort((a, b) => b[1] - a[1])[0];
    if (best && best[1] * 2 >= rows.length && ![...mapped.values()].includes(best[0])) mapped.set(col, best[0]);
  }
  const textColumn = [...Array(width).keys()].find((c) => !mapped.has(c));
  if (textColumn !== undefined) {
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
    for (const [k, v] of Object.entries(values)) (contact as Record<string, string>)[k === 'website' ? 'domain' : k] = v;
    return { contact };
  }
  const company: InputCompany = {};
  if (values.company_name) company.company_name = values.company_name;
  if (values.domain) company.domain = values.domain;
  if (values.website) company.website = values.website;
  return Object.keys(company).length > 0 ? { company } : {};
}

function parseCsv(text: string): ParsedInputText {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const rows = parseDelimited(text, chooseDelimiter(firstLine));
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
  text.split(/\r?\n/).forEach((lineText, index) => {
    for (const token of lineText.split(/[\s,;]+/).filter(Boolean)) {
      const value = token.replace(/^[<("']+|[>)"']+$/g, '');
      const field = contentField(value);
      if (field === 'email') out.contacts.push({ email: value });
      else if (field === 'linkedin_url') out.contacts.push({ linkedin_url: value });
      else if (field) out.companies.push({ [field]: value });
      else out.skipped.push({ line: index + 1, reason: `not a domain or e-mail address: ${value.slice(0, 80)}` });
    }
  });
  return out;
}

/**
 * A text is a list when no line carries more than one value that is not a domain or an e-mail
 * (so "acme.com, globex.com" is a list, "Acme, acme.com" is a CSV row).
 */
function looksLikeList(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.every((line) => line.split(/[\s,;]+/).filter(Boolean).every((t) => contentField(t.replace(/^[<("']+|[>)"']+$/g, '')) !== undefined));
}

export function parseInputText(raw: string | undefined): ParsedInputText {
  // Spreadsheet exports often start with a byte-order mark.
  const text = raw?.replace(/^\uFEFF/, '');
  if (!text || text.trim() === '') return { format: 'empty', companies: [], contacts: [], columns: {}, skipped: [] };
  return looksLikeList(text) ? parseList(text) : parseCsv(text);
}
