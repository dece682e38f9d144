import type { EndpointSpec } from '#shared/schemas/endpoint';

/** A caller's own data or a secret (a rotated key) must never sit in a shared or browser cache. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

export const cachePolicy = (spec: EndpointSpec): Record<string, string> => (spec.auth === 'api_key' ? NO_STORE : {});
