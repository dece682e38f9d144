import { describe, expect, it } from 'vitest';
import { checkDestination, checkUrlShape, classifyAddress } from '#shared/domain/webhooks/addressPolicy';
import { TableResolver } from '#shared/adapters/hostResolver';

describe('address classes', () => {
  const cases: [string, string][] = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['255.255.255.255', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fe80::1', 'private'],
    ['::', 'private'],
    ['64:ff9b::a9fe:a9fe', 'private'],
    ['2002:a9fe:a9fe::', 'private'],
    // IPv6 forms that carry an IPv4 address: compatible, mapped (hex and dotted), translated, NAT64.
    ['::a9fe:a9fe', 'private'],
    ['::169.254.169.254', 'private'],
    ['::7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::a00:1', 'private'],
    ['::c0a8:101', 'private'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'private'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:808:808', 'public'],
    ['::808:808', 'public'],
    ['64:ff9b::7f00:1', 'private'],
    ['64:ff9b::808:808', 'private'],
    ['::2', 'private'],
    // Outside global unicast (2000::/3), or documentation inside it.
    ['fec0::1', 'private'],
    ['3fff::1', 'private'],
    ['5f00::1', 'private'],
    ['4000::1', 'private'],
    ['100::1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['2a05:d018::1', 'public'],
  ];
  for (const [address, expected] of cases)
    it(`${address} is ${expected}`, () => expect(classifyAddress(address)).toBe(expected));
});

describe('URL shape', () => {
  const deployed: [string, boolean][] = [
    ['https://hooks.example.com/in', true],
    ['https://hooks.example.com:443/in', true],
    ['https://hooks.example.com:8443/in', true],
    ['https://hooks.example.com:22/in', false],
    ['https://hooks.example.com:6379/in', false],
    ['http://hooks.example.com/in', false],
    ['https://127.0.0.1/in', false],
    ['https://[::1]/in', false],
    ['https://169.254.169.254/latest/meta-data', false],
    ['https://0x7f.1/in', false], // the URL parser reads this as 127.0.0.1
    ['https://[::a9fe:a9fe]/latest/meta-data', false],
    ['https://[::169.254.169.254]/latest/meta-data', false],
    ['https://[::7f00:1]/in', false],
    ['https://[::ffff:0:7f00:1]/in', false],
    ['https://[::ffff:127.0.0.1]/in', false],
    ['https://[64:ff9b::a9fe:a9fe]/in', false],
    ['https://[2606:4700:4700::1111]/in', true],
    ['https://user:pw@hooks.example.com/in', false],
    ['ftp://hooks.example.com/in', false],
    ['not a url', false],
  ];
  for (const [url, ok] of deployed)
    it(`deployed: ${url} ${ok ? 'accepted' : 'refused'}`, () => expect(checkUrlShape(url, 'deployed').ok).toBe(ok));

  const local: [string, boolean][] = [
    ['http://127.0.0.1:4000/in', true],
    ['http://localhost:4000/in', true],
    ['https://hooks.example.com/in', true],
    ['http://hooks.example.com/in', false],
    ['http://10.0.0.5/in', false],
  ];
  for (const [url, ok] of local)
    it(`local: ${url} ${ok ? 'accepted' : 'refused'}`, () => expect(checkUrlShape(url, 'local').ok).toBe(ok));
});

describe('destination after DNS resolution', () => {
  it('refuses a host that resolves to a private address, and one that changes to one', async () => {
    const dns = new TableResolver();
    dns.set('hooks.customer.com', ['93.184.216.34']);
    expect((await checkDestination('https://hooks.customer.com/in', 'deployed', dns)).ok).toBe(true);
    dns.set('hooks.customer.com', ['93.184.216.34', '10.0.0.7']);
    expect(await checkDestination('https://hooks.customer.com/in', 'deployed', dns)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('private'),
    });
    dns.set('hooks.customer.com', ['169.254.169.254']);
    expect((await checkDestination('https://hooks.customer.com/in', 'deployed', dns)).ok).toBe(false);
  });

  it('refuses a host that does not resolve', async () => {
    expect(await checkDestination('https://nowhere.invalid/in', 'deployed', new TableResolver())).toMatchObject({
      ok: false,
      reason: 'host does not resolve',
    });
  });

  it('locally lets http reach loopback names but not a name that resolves elsewhere', async () => {
    const dns = new TableResolver();
    expect((await checkDestination('http://localhost:9/in', 'local', dns)).ok).toBe(true);
    expect((await checkDestination('http://localhost:9/in', 'deployed', dns)).ok).toBe(false);
  });
});
