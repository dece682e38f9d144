/**
 * `npx tsx bin/generateDisposableDomains.ts`: writes shared/domain/jobs/disposableDomains.br from the
 * installed `disposable-email-domains` package, in the compact form of disposableDomainsCodec.ts.
 * Run it after updating the package; test/domain/jobs/disposableDomains.test.ts fails until then.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { DISPOSABLE_DOMAINS_FILE, encodeDomainList } from '#shared/domain/jobs/disposableDomainsCodec';

const require = createRequire(import.meta.url);
const domains = require('disposable-email-domains') as string[];
const { version } = JSON.parse(readFileSync(require.resolve('disposable-email-domains/package.json'), 'utf8')) as {
  version: string;
};
const target = join(PROJECT_ROOT, 'shared/domain/jobs', DISPOSABLE_DOMAINS_FILE);
const encoded = encodeDomainList(domains);
writeFileSync(target, encoded);
console.log(`${target}: ${domains.length} domains from disposable-email-domains ${version}, ${encoded.length} bytes`);
