/**
 * Look-alikes of a community's own domains and accounts: `uniswap-claim.xyz` and `un1swap.org` for
 * uniswap.org, `@uniswap_support` for @Uniswap. Names are compared by their skeleton (letters.ts), so
 * look-alike letters and digits do not hide them; the originals themselves never count.
 */
import type { Link } from './reading';
import { editDistance, skeleton } from './letters';

/** Shorter names match too much by accident (`ens` is inside many words). */
const MIN_NAME = 4;

/** The second-level label of a host: `uniswap` of app.uniswap.org, `example` of shop.example.co.uk. */
function brandOf(host: string): string {
  const labels = host.split('.');
  if (labels.length < 2) return host;
  const second = labels[labels.length - 2];
  // example.co.uk, example.com.au: a country's own second level.
  const countrySecondLevel = labels.length >= 3 && labels[labels.length - 1].length === 2 && second.length <= 3;
  return countrySecondLevel ? labels[labels.length - 3] : second;
}

/** Whether `name` imitates `original`: the same skeleton but written otherwise, one letter off, or the original inside it. */
function imitates(name: string, original: string, containing = true): boolean {
  const a = skeleton(name);
  const b = skeleton(original);
  if (b.length < MIN_NAME) return false;
  if (a === b) return name.toLowerCase() !== original.toLowerCase();
  if (containing && a.includes(b)) return true;
  return b.length >= 5 && editDistance(a, b, 1) <= 1;
}

/**
 * `containing`: a host that contains the brand counts (uniswap-claim.xyz). Right for the community's
 * own domains; for the phishing list's well-known targets only a disguised spelling counts, since
 * many honest sites name a well-known project.
 */
export function lookalikeDomains(
  links: Link[],
  originals: readonly string[],
  containing = true,
): { host: string; of: string } | null {
  for (const link of links) {
    for (const original of originals) {
      if (link.host === original || link.host.endsWith(`.${original}`)) continue;
      const brand = brandOf(original);
      if (
        imitates(brandOf(link.host), brand, containing) ||
        (containing && imitates(link.host.replace(/\./g, ''), brand))
      )
        return { host: link.host, of: original };
    }
  }
  return null;
}

const handleOf = (name: string) => name.replace(/^(@|\/?u\/)/i, '');

export function lookalikeHandles(
  mentions: readonly string[],
  officialHandles: readonly string[],
): { mention: string; of: string } | null {
  const officials = officialHandles.map(handleOf);
  for (const mention of mentions) {
    const handle = handleOf(mention);
    if (officials.some((o) => o.toLowerCase() === handle.toLowerCase())) continue;
    const of = officials.find((o) => imitates(handle, o));
    if (of) return { mention, of };
  }
  return null;
}

/** The official handle or admin name a sender's username or display name imitates, if any. */
export function impersonates(names: (string | undefined)[], originals: readonly string[]): string | null {
  const own = originals.map(handleOf);
  for (const name of names) {
    if (!name) continue;
    const handle = handleOf(name);
    if (own.some((o) => o.toLowerCase() === handle.toLowerCase())) return null;
    const of = own.find((o) => imitates(handle, o));
    if (of) return of;
  }
  return null;
}
