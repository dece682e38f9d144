/** The polled platforms, by community type: what the minute schedule and POST /sync poll. */
import type { CommunityType } from './communityTypes';
import type { Poller } from './polling';
import { redditPoller } from './platforms/reddit/poller';

export const POLLERS: Partial<Record<CommunityType, Poller>> = { reddit: redditPoller };
