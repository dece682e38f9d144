/**
 * The list as the installed eth-phishing-detect package ships it (MetaMask's list; DBAD licence):
 * the default where no download has been written yet. Imported only by what writes the list (the
 * refresh function, the local seed, the admin command), so the moderating bundles never carry it.
 */
import packageList from 'eth-phishing-detect/src/config.json' with { type: 'json' };
import { parsePhishingList, type PhishingListContent } from './phishingListSource';

export const PACKAGE_SOURCE = 'package';

export function packagePhishingList(): PhishingListContent {
  const parsed = parsePhishingList(packageList);
  if (!parsed.ok) throw new Error(`The installed eth-phishing-detect list is not readable: ${parsed.reason}`);
  return parsed.list;
}
