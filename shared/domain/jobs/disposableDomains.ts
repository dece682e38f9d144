import { decodeDomainList } from './disposableDomainsCodec';

/**
 * The maintained `disposable-email-domains` list (about 120,000 domains), used only by the e-mail
 * verification stage. It ships compact (disposableDomains.data.ts, generated from the package) and is
 * imported and decoded on the first check rather than with the module, so the worker's cold start and
 * the stages that never verify do not pay for it; the lookup sets are built once per process.
 */
interface DisposableLists {
  domains: Set<string>;
  /** Wildcard entries: every subdomain of these is disposable too. */
  parents: Set<string>;
}

let lists: Promise<DisposableLists> | undefined;

const load = (): Promise<DisposableLists> =>
  (lists ??= Promise.all([import('./disposableDomains.data'), import('disposable-email-domains/wildcard.json')]).then(([list, wildcards]) => ({
    domains: new Set(decodeDomainList(list.DISPOSABLE_DOMAINS)),
    parents: new Set(wildcards.default as string[]),
  })));

/** True for a throwaway-mailbox domain, or a subdomain of a listed wildcard domain. */
export async function isDisposableDomain(domain: string): Promise<boolean> {
  const { domains, parents } = await load();
  if (domains.has(domain)) return true;
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) if (parents.has(labels.slice(i).join('.'))) return true;
  return false;
}
