import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DISPOSABLE_DOMAINS_FILE, decodeDomainList } from './disposableDomainsCodec';

/**
 * The maintained `disposable-email-domains` list (about 120,000 domains), used only by the e-mail
 * verification stage. It is a data file, not code (disposableDomains.br, generated from the package by
 * bin/generateDisposableDomains.ts): no bundle carries it, so no function's cold start pays for it.
 * It is read and decoded on the first check; the lookup sets are built once per process.
 *
 * Where the file is: beside this module. Under tsx and vitest that is shared/domain/jobs/; in a
 * bundle it is the bundle's folder (infra/bundling.ts defines import.meta.dirname as the CommonJS
 * bundle's __dirname), where the stack copies the file for the functions whose catalogue entry lists
 * it in `sideFiles` (infra/functionCatalog.ts): in Lambda, the task root.
 */
interface DisposableLists {
  domains: Set<string>;
  /** Wildcard entries: every subdomain of these is disposable too (a small list, bundled). */
  parents: Set<string>;
}

/** Where the list is read from: beside this module, or beside the bundle that holds it. */
export function disposableDomainsPath(): string {
  const dir = import.meta.dirname;
  if (!dir)
    throw new Error(
      `Cannot locate ${DISPOSABLE_DOMAINS_FILE}: import.meta.dirname is empty (bundle with the options of infra/bundling.ts, which define it)`,
    );
  return join(dir, DISPOSABLE_DOMAINS_FILE);
}

async function readList(): Promise<Buffer> {
  const file = disposableDomainsPath();
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `The disposable-domain list ${file} is missing: it ships beside the bundle of the functions that list it in sideFiles (infra/functionCatalog.ts); ` +
        'no address can be verified without it',
      { cause: error },
    );
  }
}

let lists: Promise<DisposableLists> | undefined;

const load = (): Promise<DisposableLists> =>
  (lists ??= Promise.all([readList(), import('disposable-email-domains/wildcard.json')]).then(
    ([list, wildcards]) => ({
      domains: new Set(decodeDomainList(list)),
      parents: new Set(wildcards.default as string[]),
    }),
    (error: unknown) => {
      // Not cached: every check fails loudly until the file is there.
      lists = undefined;
      throw error;
    },
  ));

/** True for a throwaway-mailbox domain, or a subdomain of a listed wildcard domain. */
export async function isDisposableDomain(domain: string): Promise<boolean> {
  const { domains, parents } = await load();
  if (domains.has(domain)) return true;
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) if (parents.has(labels.slice(i).join('.'))) return true;
  return false;
}
