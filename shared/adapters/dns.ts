import { promises as dns } from 'node:dns';

/** MX look-ups for e-mail verification. `timeout` is distinct from "no MX records". */
export type MxLookup = { status: 'found'; exchanges: string[] } | { status: 'none' } | { status: 'timeout' };

export interface DnsPort {
  resolveMx(domain: string): Promise<MxLookup>;
}

/** Real DNS (used in AWS). */
export class SystemDns implements DnsPort {
  constructor(private readonly timeoutMs = 2000) {}
  async resolveMx(domain: string): Promise<MxLookup> {
    const resolver = new dns.Resolver({ timeout: this.timeoutMs, tries: 1 });
    try {
      const records = await resolver.resolveMx(domain);
      return records.length
        ? { status: 'found', exchanges: records.sort((a, b) => a.priority - b.priority).map((r) => r.exchange) }
        : { status: 'none' };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ETIMEOUT' || code === 'ECONNREFUSED' || code === 'ESERVFAIL') return { status: 'timeout' };
      return { status: 'none' };
    }
  }
}

/**
 * Local DNS for a machine without a network: an explicit table wins; otherwise domains under
 * reserved TLDs (.invalid, .test, .example) have no MX and every other domain has one.
 */
export class TableDns implements DnsPort {
  // A Map: the domains come from callers' input, and a plain object would answer for `constructor`.
  private readonly table: Map<string, MxLookup>;
  constructor(table: Record<string, MxLookup> = {}) {
    this.table = new Map(Object.entries(table));
  }
  set(domain: string, answer: MxLookup): void {
    this.table.set(domain.toLowerCase(), answer);
  }
  async resolveMx(domain: string): Promise<MxLookup> {
    const known = this.table.get(domain.toLowerCase());
    if (known) return known;
    if (/\.(invalid|test|example|localhost)$/i.test(domain)) return { status: 'none' };
    return { status: 'found', exchanges: [`mx.${domain.toLowerCase()}`] };
  }
}
