import type { Ports } from './ports';
import { SystemDns } from './dns';
import { SystemResolver } from './hostResolver';

/*
 * The AWS factories of the ports that are neither an SDK client nor Stripe, each imported only by
 * the handlers wired to it, and kept out of aws.ts, which every function imports.
 */
export const systemDns = (): Ports['dns'] => new SystemDns();
export const systemResolver = (): Ports['hostResolver'] => new SystemResolver();
