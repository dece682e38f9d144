/**
 * How long API Gateway keeps an authorizer's answer for one Authorization header (the stack's
 * resultsCacheTtl) and the local server does the same. A rotated key still stops at once: every
 * API function re-checks the caller's key hash on its own read of the profile.
 */
export const AUTHORIZER_CACHE_SECONDS = 300;
