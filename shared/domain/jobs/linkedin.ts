/** `https://www.linkedin.com/in/Ada-L/?x=1` → `linkedin.com/in/ada-l`, so spellings of one profile compare equal. */
export function canonicalLinkedinUrl(url: string): string | undefined {
  const match = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.|www\.)?linkedin\.com\/(in|company)\/([^/?#]+)/i.exec(url.trim());
  return match ? `linkedin.com/${match[1].toLowerCase()}/${decodeURIComponent(match[2]).toLowerCase()}` : undefined;
}
