import { describe, expect, it } from 'vitest';
import { TableDns } from '#shared/adapters/dns';

describe('TableDns (the local DNS)', () => {
  it('answers from its table, then by the reserved-TLD rule', async () => {
    const dns = new TableDns({ 'acme.io': { status: 'none' } });
    dns.set('Globex.COM', { status: 'found', exchanges: ['mx1.globex.com'] });
    expect(await dns.resolveMx('ACME.io')).toEqual({ status: 'none' });
    expect(await dns.resolveMx('globex.com')).toEqual({ status: 'found', exchanges: ['mx1.globex.com'] });
    expect(await dns.resolveMx('nowhere.invalid')).toEqual({ status: 'none' });
  });

  it('takes domains named like Object.prototype members as ordinary domains', async () => {
    const dns = new TableDns();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(await dns.resolveMx(name)).toEqual({ status: 'found', exchanges: [`mx.${name.toLowerCase()}`] });
    }
    dns.set('__proto__', { status: 'none' });
    expect(await dns.resolveMx('__proto__')).toEqual({ status: 'none' });
    expect(await dns.resolveMx('other.io')).toEqual({ status: 'found', exchanges: ['mx.other.io'] });
  });
});
