import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';

/**
 * Host name to IP addresses, for the outbound webhook address policy: the policy is checked against
 * what a host resolves to at each delivery, so a DNS change cannot turn a public endpoint into a
 * request to the VPC, the metadata service or loopback.
 */
export interface HostResolver {
  /** Every address the host resolves to (IPv4 and IPv6); an IP literal resolves to itself. Throws when unknown. */
  lookup(host: string): Promise<string[]>;
}

const literal = (host: string): string | undefined => {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) ? bare : undefined;
};

/**
 * How long a lookup may take. getaddrinfo has no timeout of its own: a resolver that does not answer
 * would hold a delivery (or an endpoint's creation) until the function timed out; past this the host
 * counts as not resolving, and a delivery is tried again later.
 */
export const LOOKUP_TIMEOUT_MS = 5_000;

type AddressLookup = (host: string) => Promise<{ address: string }[]>;

/** The operating system's resolver (AWS; also `npm start`, which can reach real receivers). */
export class SystemResolver implements HostResolver {
  constructor(
    private readonly timeoutMs = LOOKUP_TIMEOUT_MS,
    private readonly addressesOf: AddressLookup = (host) => dns.lookup(host, { all: true, verbatim: true }),
  ) {}

  async lookup(host: string): Promise<string[]> {
    const ip = literal(host);
    if (ip) return [ip];
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`DNS lookup of ${host} timed out`), { code: 'ETIMEOUT' })),
        this.timeoutMs,
      );
    });
    try {
      const answers = await Promise.race([this.addressesOf(host), timedOut]);
      return answers.map((a) => a.address);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * A resolver answering from a table tests change at will (a DNS answer that turns private between
 * two deliveries). `localhost` is loopback; other names go to `fallback` (the local server passes the
 * system resolver) or fail as NXDOMAIN would.
 */
export class TableResolver implements HostResolver {
  private readonly table = new Map<string, string[]>([['localhost', ['127.0.0.1', '::1']]]);
  constructor(private readonly fallback?: HostResolver) {}
  set(host: string, addresses: string[]): void {
    this.table.set(host.toLowerCase(), addresses);
  }
  async lookup(host: string): Promise<string[]> {
    const ip = literal(host);
    if (ip) return [ip];
    const known = this.table.get(host.toLowerCase());
    if (!known && this.fallback) return this.fallback.lookup(host);
    if (!known) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return known;
  }
}
