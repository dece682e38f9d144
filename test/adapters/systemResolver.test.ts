import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pbkdf2 } from 'node:crypto';
import { SystemResolver } from '#shared/adapters/hostResolver';
import { checkDestination } from '#shared/domain/webhooks/addressPolicy';
import { startDnsStandIn, type DnsStandIn } from '#test/support/dnsStandIn';

// The real resolver, asking a recording DNS server on loopback instead of the system's.
describe('the system resolver', () => {
  let dns: DnsStandIn;
  beforeAll(async () => {
    dns = await startDnsStandIn(
      {
        'hooks.example.com': { a: ['93.184.215.14'], aaaa: ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'] },
        'v4only.example.com': { a: ['93.184.215.15'] },
        'turns-private.example.com': { a: ['93.184.215.16', '10.0.0.7'] },
      },
      ['hangs.example.com'],
    );
  });
  afterAll(() => dns.close());
  const resolver = (timeoutMs = 5_000) => new SystemResolver({ timeoutMs, servers: [dns.server] });

  it('answers every A and AAAA address the DNS gives, from the DNS servers it is given', async () => {
    expect(await resolver().lookup('hooks.example.com')).toEqual([
      '93.184.215.14',
      '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
    ]);
    expect(dns.questions).toEqual(
      expect.arrayContaining([
        { name: 'hooks.example.com', type: 'A' },
        { name: 'hooks.example.com', type: 'AAAA' },
      ]),
    );
  });

  it('reads a family without addresses as none, and an unknown name as a host that does not resolve', async () => {
    expect(await resolver().lookup('v4only.example.com')).toEqual(['93.184.215.15']);
    await expect(resolver().lookup('nowhere.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(await checkDestination('https://nowhere.example.com/hook', 'deployed', resolver())).toEqual({
      ok: false,
      reason: 'host does not resolve',
    });
    // Every address counts: one private address among public ones refuses the host.
    expect(await checkDestination('https://turns-private.example.com/hook', 'deployed', resolver())).toMatchObject({
      ok: false,
    });
  });

  it('answers an IP literal and the localhost names without asking the DNS', async () => {
    const before = dns.questions.length;
    expect(await resolver().lookup('[2001:db8::1]')).toEqual(['2001:db8::1']);
    expect(await resolver().lookup('203.0.113.9')).toEqual(['203.0.113.9']);
    expect(await resolver().lookup('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(await resolver().lookup('receiver.localhost')).toEqual(['127.0.0.1', '::1']);
    expect(dns.questions.length).toBe(before);
  });

  it('gives up on a DNS that never answers, and the destination check reads it as a host that does not resolve', async () => {
    await expect(resolver(200).lookup('hangs.example.com')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(dns.questions.filter((q) => q.name === 'hangs.example.com').length).toBeGreaterThan(0);
    expect(await checkDestination('https://hangs.example.com/hook', 'deployed', resolver(200))).toEqual({
      ok: false,
      reason: 'host does not resolve',
    });
  });

  it('holds none of the thread pool while lookups wait on a silent DNS (getaddrinfo held one thread each)', async () => {
    let settled = 0;
    // More waiting lookups than libuv has threads (4 by default).
    const waiting = Array.from({ length: 8 }, () =>
      resolver(3_000)
        .lookup('hangs.example.com')
        .catch(() => undefined)
        .finally(() => settled++),
    );
    // Work that runs on the thread pool finishes while every lookup is still waiting.
    await new Promise<void>((resolve, reject) =>
      pbkdf2('secret', 'salt', 1, 32, 'sha256', (err) => (err ? reject(err) : resolve())),
    );
    expect(settled).toBe(0);
    await Promise.all(waiting);
    expect(settled).toBe(8);
  });
});
