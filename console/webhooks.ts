import { useState } from 'preact/hooks';
import { call, get } from './api';
import { ErrorLine, html, messageOf, Status, useLoad, when } from './view';

interface Endpoint {
  id: string;
  url: string;
  event_types: string[];
  status: string;
  disabled_reason: string | null;
  created_at?: string;
}
interface Delivery {
  id: string;
  event_type: string;
  endpoint_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error?: string | null;
  created_at: string;
}

/** An endpoint with its state: a disabled one (deliveries failed for days) receives nothing more. */
const EndpointItem = ({ endpoint: e }: { endpoint: Endpoint }) => html`
  <li>
    <div class="row spread"><code>${e.url}</code><span class="badge ${e.status}">${e.status}</span></div>
    <div class="small muted">${e.event_types.join(', ')} · ${e.id}</div>
    ${e.disabled_reason && html`<p class="small error">${e.disabled_reason}. It receives nothing more; register the URL again to resume.</p>`}
  </li>`;

export function WebhooksScreen() {
  const endpoints = useLoad(() => get<{ items: Endpoint[] }>('/webhooks/endpoints'));
  const deliveries = useLoad(() => get<{ items: Delivery[] }>('/webhooks/deliveries?limit=50'));
  const [error, setError] = useState<string>();
  const retry = (id: string) => {
    setError(undefined);
    call('POST', `/webhooks/deliveries/${id}/retry`).then(deliveries.reload, (e: unknown) => setError(messageOf(e)));
  };
  return html`
    <section aria-labelledby="ep-h">
      <h2 id="ep-h">Webhook endpoints</h2>
      <${Status} loaded=${endpoints} empty=${endpoints.data?.items.length === 0 && 'No endpoints yet. POST /webhooks/endpoints with a url and event_types (job.completed, credits.low, …) to be called when they happen.'}>
        <ul class="list">${endpoints.data?.items.map((e) => html`<${EndpointItem} key=${e.id} endpoint=${e} />`)}</ul>
      <//>
    </section>
    <section aria-labelledby="del-h">
      <h2 id="del-h">Recent deliveries</h2>
      <${ErrorLine} error=${error} />
      <${Status} loaded=${deliveries} empty=${deliveries.data?.items.length === 0 && 'No deliveries yet. They are listed here, with their answers, once an event is sent to one of your endpoints.'}>
        <div class="scroll"><table>
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Retry</th></tr></thead>
          <tbody>${deliveries.data?.items.map(
            (d) => html`<tr>
            <td>${when(d.created_at)}</td><td>${d.event_type}</td><td>${d.status}</td><td class="n">${d.attempts}</td>
            <td>${d.last_status_code ?? d.last_error ?? '—'}</td>
            <td><button onClick=${() => retry(d.id)} aria-label=${`Retry delivery ${d.id}`}>Retry</button></td></tr>`,
          )}</tbody>
        </table></div>
      <//>
    </section>`;
}
