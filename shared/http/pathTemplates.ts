/**
 * Of the resource templates a request path matches, the one API Gateway routes it to: paths are
 * resolved segment by segment, a literal segment before a `{parameter}` (POST /bd/jobs/quote is the
 * quote resource, never /bd/jobs/{job_id} with "quote" for an id). All match the same number of segments.
 */
export function mostSpecificTemplate(templates: readonly string[]): string | undefined {
  const rank = (template: string) => template.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));
  let best: string | undefined;
  for (const template of templates) {
    if (best === undefined) {
      best = template;
      continue;
    }
    const [a, b] = [rank(template), rank(best)];
    const differing = a.findIndex((r, i) => r !== b[i]);
    if (differing >= 0 && a[differing] < b[differing]) best = template;
  }
  return best;
}
