import { describe, expect, it } from 'vitest';
import { jobProgress } from '#shared/domain/jobs/progress';
import { acceptsEventStream, formatEvent } from '#shared/domain/jobs/eventStream';

const job = (over: Partial<Parameters<typeof jobProgress>[0]> = {}): Parameters<typeof jobProgress>[0] => ({
  status: 'running',
  totalUnits: 3000,
  doneUnits: 1275,
  stageTotals: { qualification: 1000, company_size: 1000, contact_discovery: 1000 },
  stageDone: { qualification: 1000, company_size: 275, contact_discovery: 0 },
  inputs: { companies: 1000, contacts: 0 },
  batchCount: 40,
  rowsDelivered: null,
  errorMessage: null,
  capabilities: ['qualification', 'company_size', 'contact_discovery', 'deliverable_finalize'],
  ...over,
});

describe('jobProgress', () => {
  it('names the first unfinished stage and how far it is; percent from processed units', () => {
    expect(jobProgress(job())).toEqual({ percent: 42, message: 'Company size (stage 2 of 3): 275 of 1,000 rows' });
  });
  it('stays at 99 until finalisation completes the job', () => {
    expect(
      jobProgress(
        job({ doneUnits: 3000, stageDone: { qualification: 1000, company_size: 1000, contact_discovery: 1000 } }),
      ),
    ).toEqual({ percent: 99, message: 'Finalising deliverable rows' });
    expect(jobProgress(job({ status: 'completed', doneUnits: 3000, rowsDelivered: 4210 }))).toEqual({
      percent: 100,
      message: 'Completed: 4,210 rows delivered',
    });
  });
  it('describes pending, cancelled and failed jobs', () => {
    expect(jobProgress(job({ status: 'pending', doneUnits: 0 })).message).toBe(
      'Queued: 1,000 companies and 0 contacts in 40 batches',
    );
    expect(jobProgress(job({ status: 'cancelled' }))).toEqual({ percent: 42, message: 'Cancelled at 42%' });
    expect(jobProgress(job({ status: 'failed', errorMessage: 'boom' })).message).toBe('Failed: boom');
  });
});

describe('SSE helpers', () => {
  it('formats an event with id, name and one-line JSON data', () => {
    expect(formatEvent(7, 'progress', { a: 1 })).toBe('id: 7\nevent: progress\ndata: {"a":1}\n\n');
  });
  it('accepts text/event-stream, wildcards and a missing header; refuses the rest and q=0', () => {
    for (const accept of [
      undefined,
      '',
      'text/event-stream',
      'text/*',
      '*/*',
      'application/json, text/event-stream;q=0.5',
    ])
      expect(acceptsEventStream(accept), String(accept)).toBe(true);
    for (const accept of [
      'application/json',
      'text/html',
      'text/event-stream;q=0',
      'text/event-stream;q=0, */*;q=0.1',
      'text/*;q=0, */*',
    ])
      expect(acceptsEventStream(accept), accept).toBe(false);
  });
});
