import { randomToken, sha256Hex } from '#shared/ids';

/** Keys are `oik_` + 40 URL-safe characters; only their SHA-256 is ever stored. */
const KEY_PATTERN = /^oik_[A-Za-z0-9_-]{40}$/;

/** Whether `value` has the form of an API key (`oik_` and 40 URL-safe characters). */
export const isApiKeyForm = (value: string): boolean => KEY_PATTERN.test(value);

export interface IssuedKey {
  apiKey: string;
  hash: string;
  lastFour: string;
}

export function issueApiKey(fixed?: string): IssuedKey {
  const apiKey = fixed ?? `oik_${randomToken(40)}`;
  if (!KEY_PATTERN.test(apiKey)) throw new Error('An API key must be oik_ followed by 40 URL-safe characters');
  return { apiKey, hash: sha256Hex(apiKey), lastFour: apiKey.slice(-4) };
}

/** The key from `Authorization: Bearer <key>`, or null when the header is missing or malformed. */
export function bearerKey(header: string | undefined | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match || !KEY_PATTERN.test(match[1])) return null;
  return match[1];
}

export const hashApiKey = (apiKey: string): string => sha256Hex(apiKey);
