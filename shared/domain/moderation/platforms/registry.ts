/**
 * Every platform, by community type. The mapped type makes a compile error of a community type
 * without a module, a module missing a piece, and a module for a type that does not exist.
 */
import type { CommunityType } from '../communityTypes';
import type { CredentialsOf, Platform } from './platform';
import { crisp } from './crisp';
import { discord } from './discord';
import { reddit } from './reddit';
import { telegram } from './telegram';
import { x } from './x';

// Each module keeps its own Target and Credentials: `never` takes any Target (it is only ever an argument), `unknown` any Credentials.
export const PLATFORMS = { telegram, discord, reddit, x, crisp } satisfies {
  [K in CommunityType]: Platform<never, unknown>;
};

export type Platforms = typeof PLATFORMS;

/** Each platform's credentials, by community type (what the secrets port answers). */
export type PlatformCredentials = { [K in CommunityType]: CredentialsOf<Platforms[K]> };
