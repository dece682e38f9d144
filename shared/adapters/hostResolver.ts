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
 * How long a lookup may take in all: past this its queries are cancelled, the host counts as not
 * resolving, and a delivery is tried again later (an endpoint's creation answers at once).
 */
export const LOOKUP_TIMEOUT_MS = 5_000;
/** Each query's own wait for an answer, and how many times it is sent. */
const QUERY = { timeout: 2_000, tries: 2 };

/** Answers that mean "no such address" rather than "the DNS failed". */
const NO_ADDRESS = new Set(['ENODATA', 'ENOTFOUND']);

/** What `localhost` resolves to, in either resolver. */
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

/** Names that are loopback by definition (RFC 6761), answered without asking a DNS server. */
const isLocalhost = (host: string) => {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

/**
 * The DNS servers the operating system names (AWS; also `npm start`, which can reach real receivers),
 * asked for A and AAAA records through Node's asynchronous resolver. Not getaddrinfo: each of its
 * lookups holds one of libuv's four threads until the system resolver gives up, cannot be cancelled,
 * and a few endpoints on hosts whose DNS never answers would then stall every other delivery (and any
 * file or crypto work) of the same function.
 */
export class SystemResolver implements HostResolver {
  constructor(private readonly options: { timeoutMs?: number; servers?: string[] } = {}) {}

  async lookup(host: string): Promise<string[]> {
    const ip = literal(host);
    if (ip) return [ip];
    if (isLocalhost(host)) return [...LOOPBACK_ADDRESSES];
    const resolver = new dns.Resolver(QUERY);
    if (this.options.servers) resolver.setServers(this.options.servers);
    const timer = setTimeout(() => resolver.cancel(), this.options.timeoutMs ?? LOOKUP_TIMEOUT_MS);
    try {
      const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
      const addresses = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
      const errors = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason as NodeJS.ErrnoException] : []));
      // A family with no address is normal; a query that failed otherwise leaves the answer incomplete.
      const failed = errors.find((e) => !NO_ADDRESS.has(e.code ?? ''));
      if (failed?.code === 'ECANCELLED')
        throw Object.assign(new Error(`DNS lookup of ${host} timed out`), { code: 'ETIMEOUT' });
      if (failed) throw failed;
      if (!addresses.length) throw errors[0];
      return addresses;
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
  private readonly table = new Map<string, string[]>([['localhost', LOOPBACK_ADDRESSES]]);
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
