import { refreshPhishingList } from '#shared/domain/moderation/phishingListRefresh';
import { parseOptions, UsageError } from './options';

/**
 * `phishing refresh [--url URL]`: what the scheduled refresh does, now: downloads the phishing list
 * (PHISHING_LIST_URL, or the URL given) and writes it when it passes the checks; a table without a
 * list gets the package's copy when the download cannot be used.
 */
export function phishingCommand(args: string[]): () => Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'refresh') throw new UsageError(`unknown phishing action "${action ?? ''}"`);
  const { url } = parseOptions('phishing', rest);
  return async () => {
    const report = await refreshPhishingList({ url });
    const what = `${report.blocked} domains from ${report.source}`;
    if (report.outcome === 'written')
      console.log(`Phishing list ${report.changed ? 'written' : 'unchanged'}: ${what}.`);
    else console.log(`Phishing list kept: ${what}.`);
    if (report.reason) console.log(`The download was not used: ${report.reason}.`);
  };
}
