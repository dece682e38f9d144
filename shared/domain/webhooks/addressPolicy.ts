/**
 * Where outbound webhooks may go. Deployed: only https, and only to public addresses, checked against
 * what the host resolves to at every delivery (a DNS answer can change after the endpoint was
 * accepted). Locally: loopback receivers (http or https) as well, so `npm start` can call one.
 */
import { config } from '#shared/config/config';
import { BlockList, isIP } from 'node:net';
import type { HostResolver } from '#shared/adapters/hostResolver';

export type AddressPolicy = 'local' | 'deployed';

/** Ranges that are not the public Internet (IANA special-purpose registries). Loopback is listed apart. */
const NON_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['169.254.0.0', 16, 'ipv4'], // link-local, the cloud metadata service
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  // IPv6: only global unicast (2000::/3) reaches the public Internet. Everything outside it is refused whole:
  // unspecified, NAT64 (64:ff9b::/96, reaching IPv4 space, private included), discard-only (100::/64),
  // SRv6 SIDs (5f00::/16), unique local (fc00::/7: AWS VPC IPv6 private, fd00:ec2::254 metadata),
  // deprecated site-local (fec0::/10), link-local (fe80::/10) and multicast (ff00::/8).
  ['::', 3, 'ipv6'],
  ['4000::', 2, 'ipv6'],
  ['8000::', 1, 'ipv6'],
  // Special-purpose ranges inside global unicast.
  ['2001::', 23, 'ipv6'], // IETF protocol assignments (Teredo included)
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4 (embeds any IPv4 address)
  ['3fff::', 20, 'ipv6'], // documentation (the second block)
];
const LOOPBACK: [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

const listOf = (ranges: [string, number, 'ipv4' | 'ipv6'][]) => {
  const list = new BlockList();
  for (const [net, prefix, family] of ranges) list.addSubnet(net, prefix, family);
  return list;
};
// One list per family: a BlockList matches an IPv4 address against IPv6 rules as ::ffff:a.b.c.d, which ::/3 holds.
const nonPublic = {
  ipv4: listOf(NON_PUBLIC.filter(([, , family]) => family === 'ipv4')),
  ipv6: listOf(NON_PUBLIC.filter(([, , family]) => family === 'ipv6')),
};
const loopback = listOf(LOOPBACK);

/** The eight 16-bit groups of an IPv6 address `isIP` accepted (a trailing dotted quad is two groups). */
function ipv6Groups(address: string): number[] {
  const [head, tail = ''] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined) =>
    !part
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = parse(head);
  const back = parse(address.includes('::') ? tail : undefined);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address the packet reaches or stands for: compatible
 * (::/96), mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96). NAT64 (64:ff9b::/96) is refused whole.
 */
const EMBEDDING_PREFIXES: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 0xffff],
  [0, 0, 0, 0, 0xffff, 0],
];

/** An IPv6 address that carries an IPv4 address is checked as that IPv4 address (:: and ::1 are themselves). */
function normalise(address: string): { ip: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { ip: address, family: 'ipv4' };
  const groups = ipv6Groups(address);
  const embeds = EMBEDDING_PREFIXES.some((prefix) => prefix.every((g, i) => groups[i] === g));
  const unspecifiedOrLoopback = groups.slice(0, 7).every((g) => g === 0) && groups[7] <= 1;
  if (!embeds || unspecifiedOrLoopback) return { ip: address, family: 'ipv6' };
  const [hi, lo] = [groups[6], groups[7]];
  return { ip: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
}

export type AddressClass = 'public' | 'loopback' | 'private';

export function classifyAddress(address: string): AddressClass {
  const { ip, family } = normalise(address);
  if (loopback.check(ip, family)) return 'loopback';
  return nonPublic[family].check(ip, family) ? 'private' : 'public';
}

/** Address classes each policy lets a delivery reach. */
const ALLOWED: Record<AddressPolicy, readonly AddressClass[]> = {
  deployed: ['public'],
  local: ['public', 'loopback'],
};
const SCHEMES: Record<AddressPolicy, readonly string[]> = {
  deployed: ['https:'],
  local: ['https:', 'http:'],
};

const DEPLOYED_PORTS = ['443', '8443'];

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL's own shape: scheme, no credentials, a host; an IP literal host is classified here already. */
export function checkUrlShape(raw: string, policy: AddressPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (!SCHEMES[policy].includes(url.protocol))
    return { ok: false, reason: policy === 'deployed' ? 'must use https' : 'must use http or https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  // https's own port (443, which URL leaves out) or 8443: no other service of a host is reachable.
  if (policy === 'deployed' && url.port !== '' && !DEPLOYED_PORTS.includes(url.port))
    return { ok: false, reason: 'must use port 443 or 8443' };
  if (!url.hostname) return { ok: false, reason: 'has no host' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !ALLOWED[policy].includes(classifyAddress(host)))
    return { ok: false, reason: 'points at a private, loopback or reserved address' };
  if (policy === 'local' && url.protocol === 'http:' && !isIP(host) && host !== 'localhost') {
    // Plain http only for a receiver on this machine; anything else must be https, as deployed.
    return { ok: false, reason: 'must use https unless it is a loopback receiver' };
  }
  return { ok: true, url };
}

/**
 * The full check, run at creation and before every delivery: the shape, then every address the host
 * resolves to (all must be allowed: a client may connect to any of them).
 */
export async function checkDestination(
  raw: string,
  policy: AddressPolicy,
  resolver: HostResolver,
): Promise<{ ok: true; url: URL; addresses: string[] } | { ok: false; reason: string }> {
  const shape = checkUrlShape(raw, policy);
  if (!shape.ok) return shape;
  let addresses: string[];
  try {
    addresses = await resolver.lookup(shape.url.hostname);
  } catch {
    return { ok: false, reason: 'host does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'host does not resolve' };
  if (addresses.some((a) => !ALLOWED[policy].includes(classifyAddress(a))))
    return { ok: false, reason: 'resolves to a private, loopback or reserved address' };
  if (
    policy === 'local' &&
    shape.url.protocol === 'http:' &&
    addresses.some((a) => classifyAddress(a) !== 'loopback')
  ) {
    return { ok: false, reason: 'must use https unless it is a loopback receiver' };
  }
  return { ok: true, url: shape.url, addresses };
}

/** Deployed unless the local runtime says otherwise (config().webhookAddressPolicy): a forgotten setting fails closed. */
export const configuredAddressPolicy = (): AddressPolicy => config().webhookAddressPolicy;
