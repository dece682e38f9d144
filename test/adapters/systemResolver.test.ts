import { describe, expect, it } from 'vitest';
import { SystemResolver } from '#shared/adapters/hostResolver';
import { checkDestination } from '#shared/domain/webhooks/addressPolicy';

// getaddrinfo has no timeout of its own; the resolver gives up after its own, so a silent DNS server
// holds neither a delivery nor an endpoint's creation until the function times out.
describe('the system resolver', () => {
  it('gives up on a lookup that does not answer, and the destination check reads it as a host that does not resolve', async () => {
    const silent = new SystemResolver(50, () => new Promise(() => {}));
    await expect(silent.lookup('hangs.example.com')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(await checkDestination('https://hangs.example.com/hook', 'deployed', silent)).toEqual({
      ok: false,
      reason: 'host does not resolve',
    });
  });

  it('answers with every address a lookup in time gives, and an IP literal without looking it up', async () => {
    const asked: string[] = [];
    const resolver = new SystemResolver(1_000, async (host) => {
      asked.push(host);
      return [{ address: '93.184.215.14' }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }];
    });
    expect(await resolver.lookup('example.com')).toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect(await resolver.lookup('[2001:db8::1]')).toEqual(['2001:db8::1']);
    expect(asked).toEqual(['example.com']);
  });
});
