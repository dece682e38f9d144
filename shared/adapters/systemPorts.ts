import { optionalEnv } from '#shared/config/env';
import type { Ports } from './ports';
import { SystemDns } from './dns';
import { SecretsManagerSecrets } from './secrets';
import { SystemResolver } from './hostResolver';

/*
 * The AWS factories of the ports that are neither an SDK client nor Stripe, each imported only by
 * the handlers wired to it: kept out of aws.ts, which every function imports, because the secrets
 * adapter brings the whole platform registry (every platform's moderation code) with it.
 */
export const systemDns = (): Ports['dns'] => new SystemDns();
export const platformSecrets = (): Ports['secrets'] => new SecretsManagerSecrets(optionalEnv('PLATFORM_SECRET_ARN'));
export const systemResolver = (): Ports['hostResolver'] => new SystemResolver();
