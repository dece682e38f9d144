/**
 * Every platform, by community type. The mapped type makes a compile error of a community type
 * without a module, a module missing a piece, and a module for a type that does not exist.
 */
import type { CommunityType } from './names';
import type { CredentialsOf, Platform, PlatformWork } from './contract';
import { crisp } from '#shared/platforms/crisp/platform';
import { discord } from '#shared/platforms/discord/platform';
import { reddit } from '#shared/platforms/reddit/platform';
import { telegram } from '#shared/platforms/telegram/platform';
import { x } from '#shared/platforms/x/platform';

// Each module keeps its own Target and Credentials: `never` takes any Target (it is only ever an argument), `unknown` any Credentials.
export const PLATFORMS = { telegram, discord, reddit, x, crisp } satisfies {
  [K in CommunityType]: Platform<never, unknown>;
};

export type Platforms = typeof PLATFORMS;

/** Each platform's credentials, by community type (what the secrets port answers). */
export type PlatformCredentials = { [K in CommunityType]: CredentialsOf<Platforms[K]> };

/**
 * The platforms' own queued work, by the kind of its queue message: the worker runs a message of one
 * of these kinds through its platform's `work`, and the renewals function sweeps each for lost messages.
 */
export const PLATFORM_WORK: ReadonlyMap<string, PlatformWork> = new Map(
  Object.values(PLATFORMS).flatMap((platform): [string, PlatformWork][] =>
    platform.work ? [[platform.work.kind, platform.work]] : [],
  ),
);
