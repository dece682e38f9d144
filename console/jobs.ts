import { useEffect, useState } from 'preact/hooks';
import { call, download, followEvents, get } from './api';
import { ErrorLine, html, messageOf, More, num, Status, useLoad, usePaged, when } from './view';

interface Job {
  job_id: string;
  status: string;
  progress_percent: number;
  progress_message: string;
  preset: string;
  origin: string;
  credits_reserved: number;
  credits_charged: number;
  created_at: string;
  error_message: string | null;
  warnings: string[];
  stats: { rows_by_source: Record<string, number> };
}
interface JobEvent {
  status: string;
  progress_percent: number;
  progress_message: string;
}
const OVER = new Set(['completed', 'failed', 'cancelled']);
/** How long a stream that ended before its job waits to be followed again (EventSource waits about as long). */
const RECONNECT_MS = 2000;

/** A job's bar, moved by its event stream while it runs. */
function JobRow({ job, onChange }: { job: Job; onChange: () => void }) {
  const [live, setLive] = useState<JobEvent>(job);
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (OVER.has(job.status)) return;
    const abort = new AbortController();
    let completed = false;
    let again: ReturnType<typeof setTimeout> | undefined;
    followEvents(
      `/bd/jobs/${job.job_id}/events`,
      (event, data) => {
        setLive(data as JobEvent);
        if (event !== 'complete') return;
        completed = true;
        onChange();
      },
      abort.signal,
    ).then(
      // The server ends a stream before its function's time runs out and leaves the reconnecting to
      // the client (shared/domain/jobs/eventStream.ts): one that ended before `complete` is followed again.
      () => {
        if (!completed && !abort.signal.aborted) again = setTimeout(() => setRound((r) => r + 1), RECONNECT_MS);
      },
      (e: unknown) => abort.signal.aborted || setError(messageOf(e)),
    );
    return () => {
      abort.abort();
      clearTimeout(again);
    };
  }, [job.job_id, job.status, round]);
  const act = (run: () => Promise<unknown>) => run().then(onChange, (e: unknown) => setError(messageOf(e)));
  const running = !OVER.has(live.status);
  return html`
    <li class="job" data-status=${live.status}>
      <div class="row spread">
        <strong>${job.preset}</strong>
        <span class="badge ${live.status}">${live.status}</span>
      </div>
      <progress max="100" value=${live.progress_percent} aria-label=${`Job ${job.job_id} progress`}>${live.progress_percent}%</progress>
      <div class="row spread small"><span class="pct">${live.progress_percent} %</span><span>${live.progress_message}</span></div>
      <div class="small muted">${when(job.created_at)} · ${job.origin} · reserved ${num(job.credits_reserved)}, charged ${num(job.credits_charged)} · <code>${job.job_id}</code></div>
      ${job.error_message && html`<p class="error">${job.error_message}</p>`}
      ${
        Object.keys(job.stats.rows_by_source).length > 0 &&
        html`<div class="small sources">Rows by source: ${Object.entries(job.stats.rows_by_source)
          .map(([source, rows]) => `${source} ${num(rows)}`)
          .join(', ')}</div>`
      }
      ${job.warnings.length > 0 && html`<ul class="small warnings">${job.warnings.map((w) => html`<li>${w}</li>`)}</ul>`}
      <div class="row">
        ${running && html`<button onClick=${() => act(() => call('POST', `/bd/jobs/${job.job_id}/cancel`))}>Cancel</button>`}
        ${
          live.status === 'completed' &&
          html`
          <button onClick=${() => act(() => download(`/bd/jobs/${job.job_id}/export?format=csv`, `job-${job.job_id}.csv`, 'text/csv'))}>Export CSV</button>
          <button onClick=${() => act(() => download(`/bd/jobs/${job.job_id}/export?format=json`, `job-${job.job_id}.json`, 'application/json'))}>Export JSON</button>`
        }
      </div>
      <${ErrorLine} error=${error} />
    </li>`;
}

/** A made-up list of companies, big enough to watch the bar move. */
const sampleJob = (count: number) => ({
  preset: 'full_pipeline',
  input_assets: {
    companies: Array.from({ length: count }, (_, i) => ({
      company_name: `Demo Company ${i + 1}`,
      domain: `demo-company-${i + 1}.io`,
    })),
  },
});

export function JobsScreen() {
  const jobs = usePaged<Job>('/bd/jobs');
  // Jobs are a paid endpoint: a developer account is told so before it tries, not by a 403 after.
  const plan = useLoad(() => get<{ tier: string; status: string }>('/subscriptions/status'));
  const paid = plan.data ? plan.data.tier === 'pro' && plan.data.status === 'active' : true;
  const [error, setError] = useState<string>();
  const [count, setCount] = useState(20);
  const start = (e: Event) => {
    e.preventDefault();
    setError(undefined);
    call('POST', '/bd/jobs', sampleJob(count)).then(jobs.reload, (err: unknown) => setError(messageOf(err)));
  };
  return html`
    <section aria-labelledby="jobs-h">
      <h2 id="jobs-h">Enrichment jobs</h2>
      <form class="row" onSubmit=${start}>
        <label>Sample companies <input type="number" min="1" max="500" value=${count} onInput=${(e: Event) => setCount(Number((e.currentTarget as HTMLInputElement).value))} /></label>
        <button type="submit" disabled=${!paid} aria-describedby=${paid ? undefined : 'jobs-plan'}>Start a sample job</button>
        <button type="button" onClick=${jobs.reload}>Refresh</button>
      </form>
      ${
        !paid &&
        html`<p class="note" id="jobs-plan">Jobs need an active pro subscription; this account is on the ${plan.data?.tier} plan (${plan.data?.status}). Upgrade with <code>POST /subscriptions/checkout-session</code>, then start a sample job here.</p>`
      }
      <${ErrorLine} error=${error} />
      <${Status} loaded=${jobs} empty=${jobs.data?.items.length === 0 && 'No jobs yet. Start a sample job above, or POST /bd/jobs with your own companies; it shows here with its progress.'}>
        <ul class="list">${jobs.data?.items.map((j) => html`<${JobRow} key=${j.job_id + j.status} job=${j} onChange=${jobs.reload} />`)}</ul>
        <${More} list=${jobs} noun="jobs" />
      <//>
    </section>`;
}
