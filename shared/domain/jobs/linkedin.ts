/** `https://www.linkedin.com/in/Ada-L/?x=1` → `linkedin.com/in/ada-l`, so spellings of one profile compare equal. */
export function canonicalLinkedinUrl(url: string): string | undefined {
  // Anchored, one way to match: linear in the length of the caller's text.
  const match = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.|www\.)?linkedin\.com\/(in|company)\/([^/?#]+)/i.exec(url.trim());
  return match ? `linkedin.com/${match[1].toLowerCase()}/${decodedSlug(match[2]).toLowerCase()}` : undefined;
}

/** A slug as typed: malformed percent-encoding (`%E0%A4%A`) is kept as is rather than failing the job's finalisation. */
function decodedSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}
