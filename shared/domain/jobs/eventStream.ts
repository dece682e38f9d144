/**
 * The job's Server-Sent Events: the current state first as `progress`, then
 * `progress` only when the payload changes (the store is polled every `pollMs`), a `: keep-alive`
 * comment after `keepAliveMs` of silence, and the terminal state once as `complete`, which ends the
 * stream. Each event's `id:` is the job's version, which grows with every change (and never goes back).
 */
import { TERMINAL_STATUSES } from '#shared/store/jobsRepo';
import { requireJob } from './requireJob';
import { jobEventData } from './view';

export const SSE_POLL_MS = 2000;
export const SSE_KEEP_ALIVE_MS = 15_000;

export interface EventSink {
  write(chunk: string): void;
  /** True once the client went away or the stream was ended. */
  readonly closed: boolean;
  /** Resolves when the sink closes, so a wait between polls ends early. */
  onClose(listener: () => void): void;
}

export interface StreamOptions {
  userId: string;
  jobId: string;
  sink: EventSink;
  pollMs?: number;
  keepAliveMs?: number;
  /** Milliseconds the stream may still run (Lambda's remaining time); it ends in time and the client reconnects. */
  timeLeftMs?: () => number;
}

export const formatEvent = (id: number, event: 'progress' | 'complete', data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** True when the Accept header admits text/event-stream (no header admits anything). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  const ranges = accept.split(',').map((range) => {
    const [type, ...params] = range
      .trim()
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    return { type, q: q ? Number(q.slice(2)) : 1 };
  });
  // The most specific range decides (RFC 9110): `text/event-stream;q=0` excludes it whatever `*/*` says.
  for (const type of ['text/event-stream', 'text/*', '*/*']) {
    const match = ranges.find((r) => r.type === type);
    if (match) return match.q > 0;
  }
  return false;
}

export async function streamJobEvents(options: StreamOptions): Promise<void> {
  const { sink } = options;
  const pollMs = options.pollMs ?? SSE_POLL_MS;
  const keepAliveMs = options.keepAliveMs ?? SSE_KEEP_ALIVE_MS;
  let wake: (() => void) | undefined;
  sink.onClose(() => wake?.());
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  let lastPayload: string | undefined;
  let lastVersion = Number.NEGATIVE_INFINITY;
  let lastWriteAt = Date.now();
  while (!sink.closed) {
    const job = await requireJob(options.userId, options.jobId);
    // The polls read eventually consistent (half the price of a strong read, every 2 s of every stream), so one
    // may answer a version older than one already sent: it is passed over, and ids and progress never go back.
    const fresh = job.version >= lastVersion;
    if (fresh) lastVersion = job.version;
    const data = jobEventData(job);
    if (fresh && TERMINAL_STATUSES.includes(job.status)) {
      sink.write(formatEvent(job.version, 'complete', data));
      return;
    }
    const payload = JSON.stringify(data);
    if (fresh && payload !== lastPayload) {
      sink.write(formatEvent(job.version, 'progress', data));
      lastPayload = payload;
      lastWriteAt = Date.now();
    } else if (Date.now() - lastWriteAt >= keepAliveMs) {
      sink.write(': keep-alive\n\n');
      lastWriteAt = Date.now();
    }
    if (options.timeLeftMs && options.timeLeftMs() < pollMs + 5000) return;
    // Wake for the next poll, or sooner when the keep-alive falls due, so it is never late.
    await pause(Math.max(0, Math.min(pollMs, keepAliveMs - (Date.now() - lastWriteAt))));
  }
}
