/**
 * Every platform, by community type. The mapped type makes a community type without a module, a
 * module missing a piece, or a module for a type that does not exist is a compile error.
 */
import type { CommunityType } from '../communityTypes';
import type { CredentialsOf, Platform } from './platform';
import { crisp } from './crisp';
import { discord } from './discord';
import { reddit } from './reddit';
import { telegram } from './telegram';
import { x } from './x';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const PLATFORMS = { telegram, discord, reddit, x, crisp } satisfies { [K in CommunityType]: Platform<any, any> };

export type Platforms = typeof PLATFORMS;

/** Each platform's credentials, by community type (what the secrets port answers). */
export type PlatformCredentials = { [K in CommunityType]: CredentialsOf<Platforms[K]> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const platformOf = (type: CommunityType): Platform<any, any> => PLATFORMS[type];
