/**
 * Canonical company domains: `https://www.X.io/about` → `x.io`. Scheme, credentials, port, path,
 * query, a leading `www.` and a trailing dot are dropped; international names become punycode.
 * Returns undefined when what is left is not a host name with at least one dot.
 */
export function normaliseDomain(raw: string | undefined | null): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let host: string;
  try {
    host = new URL(withScheme).hostname;
  } catch {
    return undefined;
  }
  host = host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\d*\./, '');
  return /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(host)
    ? host
    : undefined;
}

/** The domain of an e-mail address, normalised; undefined when there is none. */
export const emailDomain = (email: string | undefined | null): string | undefined => {
  const at = email?.lastIndexOf('@') ?? -1;
  return email && at > 0 ? normaliseDomain(email.slice(at + 1)) : undefined;
};
