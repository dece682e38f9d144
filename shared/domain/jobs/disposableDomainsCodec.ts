import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** The file the disposable-domain list ships as, beside the source (disposableDomains.ts) and beside the worker's bundle. */
export const DISPOSABLE_DOMAINS_FILE = 'disposableDomains.br';

/**
 * The compact form the disposable-domain list ships in (disposableDomains.br): the domains sorted,
 * one a line, brotli-compressed, raw bytes. About 0.58 MB instead of the package's 2.4 MB JSON array,
 * and a data file rather than code: it is not in any bundle, the stack copies it beside the worker's
 * (infra/functionCatalog.ts, `sideFiles`), and it is read and decoded (a few ms) only at the first verification.
 */
export function encodeDomainList(domains: readonly string[]): Buffer {
  const text = [...new Set(domains)].sort().join('\n');
  return brotliCompressSync(text, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
  });
}

export function decodeDomainList(encoded: Uint8Array): string[] {
  return brotliDecompressSync(encoded).toString('utf8').split('\n');
}
