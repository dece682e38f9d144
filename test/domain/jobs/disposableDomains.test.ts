import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, DISPOSABLE_DOMAINS_SIDE_FILE } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { disposableDomainsPath, isDisposableDomain } from '#shared/domain/jobs/disposableDomains';
import {
  DISPOSABLE_DOMAINS_FILE,
  decodeDomainList,
  encodeDomainList,
} from '#shared/domain/jobs/disposableDomainsCodec';

const packageList = createRequire(import.meta.url)('disposable-email-domains') as string[];

describe('disposable-domain list', () => {
  it("the compact copy holds exactly the installed package's domains (regenerate with bin/generateDisposableDomains.ts)", () => {
    expect(decodeDomainList(readFileSync(join(PROJECT_ROOT, DISPOSABLE_DOMAINS_SIDE_FILE)))).toEqual(
      [...new Set(packageList)].sort(),
    );
  });

  it('the codec round-trips a list, sorted and without duplicates', () => {
    expect(decodeDomainList(encodeDomainList(['b.io', 'a.io', 'b.io']))).toEqual(['a.io', 'b.io']);
  });

  it("is read from beside its module under tsx and vitest, the file the catalogue ships beside the worker's bundle", () => {
    expect(disposableDomainsPath()).toBe(join(PROJECT_ROOT, DISPOSABLE_DOMAINS_SIDE_FILE));
    expect(basename(DISPOSABLE_DOMAINS_SIDE_FILE)).toBe(DISPOSABLE_DOMAINS_FILE);
    expect(dirname(disposableDomainsPath())).toBe(join(PROJECT_ROOT, 'shared/domain/jobs'));
    expect(FUNCTIONS.worker.sideFiles).toEqual([DISPOSABLE_DOMAINS_SIDE_FILE]);
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
