/**
 * The known-phishing-domain list as its source publishes it: eth-phishing-detect's config.json
 * (`{version, tolerance, fuzzylist, whitelist, blacklist}`), the installed package's copy or a download
 * of its public file (PHISHING_LIST_URL). A download is checked before it may replace anything: its
 * size, its shape and its domains, so that an error page, a truncated file or a list emptied by
 * mistake upstream never wipes the one in use. Entries that are public suffixes (`co.uk`, `github.io`)
 * are left out: a host counts through its parents down to its registrable domain, never above it.
 */
import { parse } from 'tldts';

export interface PhishingListContent {
  version: number;
  tolerance: number;
  /** fuzzylist: well-known domains that phishing imitates. */
  targets: string[];
  /** whitelist: domains (and their subdomains) never counted, though a parent is listed. */
  allowed: string[];
  /** blacklist, in the source's own order. */
  blocked: string[];
}

export const PHISHING_LIST_BOUNDS = {
  /** The file was 377 KB when this was written; anything past this is not the list. */
  maxBytes: 16 * 1024 * 1024,
  /** A download listing fewer domains is refused (the package copy lists some 13,700). */
  minBlocked: 1_000,
  /** A download listing fewer than this share of the current list's domains is refused. */
  minShareOfCurrent: 0.5,
  /** A download with more malformed entries than this share is refused rather than trimmed. */
  maxMalformedShare: 0.01,
  downloadTimeoutMs: 30_000,
} as const;

export type ParsedList = { ok: true; list: PhishingListContent } | { ok: false; reason: string };

const LABEL = /^[a-z0-9_-]{1,63}$/;
/** A hostname as the list writes them: lower-case labels of letters, digits, `-` and `_`, 253 characters at most. */
const isDomain = (text: string): boolean =>
  text.length <= 253 && text.split('.').every((label) => LABEL.test(label)) && text.includes('.');

/** A public suffix (private ones included), under which anyone may register: never a listed domain. */
function isPublicSuffix(domain: string): boolean {
  const parsed = parse(domain, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain === null;
}

/** A list of domains: lower-cased and trimmed, duplicates and public suffixes dropped, malformed entries counted. */
function domains(
  value: unknown,
  field: string,
): { ok: true; domains: string[]; malformed: number } | { ok: false; reason: string } {
  if (!Array.isArray(value)) return { ok: false, reason: `${field} is not a list` };
  const out = new Set<string>();
  let malformed = 0;
  for (const entry of value) {
    const domain = typeof entry === 'string' ? entry.trim().toLowerCase().replace(/\.$/, '') : '';
    if (!isDomain(domain)) malformed += 1;
    else if (!isPublicSuffix(domain)) out.add(domain);
  }
  return { ok: true, domains: [...out], malformed };
}

/** Checks a parsed config.json's shape and domains. */
export function parsePhishingList(raw: unknown): ParsedList {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'not a JSON object' };
  const doc = raw as Record<string, unknown>;
  const version = doc.version;
  const tolerance = doc.tolerance;
  if (typeof version !== 'number' || !Number.isFinite(version)) return { ok: false, reason: 'version is not a number' };
  if (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 0 || tolerance > 10)
    return { ok: false, reason: 'tolerance is not a small whole number' };
  const blocked = domains(doc.blacklist, 'blacklist');
  if (!blocked.ok) return blocked;
  const allowed = domains(doc.whitelist, 'whitelist');
  if (!allowed.ok) return allowed;
  const targets = domains(doc.fuzzylist, 'fuzzylist');
  if (!targets.ok) return targets;
  const entries = blocked.domains.length + allowed.domains.length + targets.domains.length;
  const malformed = blocked.malformed + allowed.malformed + targets.malformed;
  if (malformed > Math.max(1, entries * PHISHING_LIST_BOUNDS.maxMalformedShare))
    return { ok: false, reason: `${malformed} malformed domains` };
  return {
    ok: true,
    list: { version, tolerance, targets: targets.domains, allowed: allowed.domains, blocked: blocked.domains },
  };
}

/**
 * Whether a checked list may replace the current one: it must list at least `minBlocked` domains and
 * at least half as many as the list in use (a list that lost most of its domains is a mistake).
 */
export function acceptableSize(
  list: PhishingListContent,
  currentBlocked: number | undefined,
  minBlocked: number = PHISHING_LIST_BOUNDS.minBlocked,
): string | undefined {
  if (list.blocked.length < minBlocked) return `only ${list.blocked.length} domains listed (at least ${minBlocked})`;
  if (currentBlocked !== undefined && list.blocked.length < currentBlocked * PHISHING_LIST_BOUNDS.minShareOfCurrent)
    return `only ${list.blocked.length} domains listed where the list in use has ${currentBlocked}`;
  return undefined;
}

/** Thrown for a download that failed or is not a list; its message says which. */
export class PhishingListDownloadError extends Error {
  override readonly name = 'PhishingListDownloadError';
}

/** The body of the list's URL as text, refused past the size bound (read as it arrives, not buffered whole first). */
async function downloadText(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(PHISHING_LIST_BOUNDS.downloadTimeoutMs),
    });
  } catch (err) {
    throw new PhishingListDownloadError(`download failed: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new PhishingListDownloadError(`download failed: HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > PHISHING_LIST_BOUNDS.maxBytes) {
    await res.body.cancel();
    throw new PhishingListDownloadError(`download refused: ${declared} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > PHISHING_LIST_BOUNDS.maxBytes) {
      await reader.cancel();
      throw new PhishingListDownloadError(`download refused: more than ${PHISHING_LIST_BOUNDS.maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Downloads and checks the list at `url`; throws PhishingListDownloadError when it cannot be had or is not a list. */
export async function downloadPhishingList(url: string): Promise<PhishingListContent> {
  const text = await downloadText(url);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PhishingListDownloadError('download is not JSON');
  }
  const parsed = parsePhishingList(raw);
  if (!parsed.ok) throw new PhishingListDownloadError(`download is not a phishing list: ${parsed.reason}`);
  return parsed.list;
}
