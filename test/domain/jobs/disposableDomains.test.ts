import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DISPOSABLE_DOMAINS } from '#shared/domain/jobs/disposableDomains.data';
import { isDisposableDomain } from '#shared/domain/jobs/disposableDomains';
import { decodeDomainList, encodeDomainList } from '#shared/domain/jobs/disposableDomainsCodec';

const packageList = createRequire(import.meta.url)('disposable-email-domains') as string[];

describe('disposable-domain list', () => {
  it('the compact copy holds exactly the installed package\'s domains (regenerate with bin/generateDisposableDomains.ts)', () => {
    expect(decodeDomainList(DISPOSABLE_DOMAINS)).toEqual([...new Set(packageList)].sort());
  });

  it('the codec round-trips a list, sorted and without duplicates', () => {
    expect(decodeDomainList(encodeDomainList(['b.io', 'a.io', 'b.io']))).toEqual(['a.io', 'b.io']);
  });

  it('answers as the package would: listed domains, subdomains of wildcard entries, and nothing else', async () => {
    const listed = packageList[Math.floor(packageList.length / 2)];
    expect(await isDisposableDomain(listed)).toBe(true);
    expect(await isDisposableDomain(packageList[0])).toBe(true);
    expect(await isDisposableDomain(packageList[packageList.length - 1])).toBe(true);
    expect(await isDisposableDomain('anything.33m.co')).toBe(true);
    expect(await isDisposableDomain('orbit.io')).toBe(false);
    expect(await isDisposableDomain(`not-${listed}`)).toBe(packageList.includes(`not-${listed}`));
  });
});
