import { toCsv } from '#shared/domain/jobs/finalize';
import type { DeliverableRow } from '#shared/domain/jobs/capabilities';
import { HttpResponse } from './response';

/** Deliverable rows as the caller asked: `{"rows": [...]}`, or `text/csv` with a header row as a download. */
export function rowsExport(
  exported: { rows: DeliverableRow[] },
  format: 'csv' | 'json',
  filename: string,
): { rows: DeliverableRow[] } | HttpResponse {
  if (format === 'json') return exported;
  return new HttpResponse(
    200,
    toCsv(exported.rows),
    { 'content-disposition': `attachment; filename="${filename}"` },
    'text/csv; charset=utf-8',
  );
}
