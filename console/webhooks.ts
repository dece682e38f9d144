import { useState } from 'preact/hooks';
import { WEBHOOK_EVENT_TYPES } from '../shared/domain/webhooks/eventTypes';
import { call } from './api';
import { ErrorLine, html, messageOf, More, Status, usePaged, when } from './view';

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

/** A signing secret the API shows once (on creation or rotation): shown here until dismissed. */
const Secret = ({ secret, onClose }: { secret: { id: string; value: string }; onClose: () => void }) => html`
  <div class="panel note" role="status">
    <p>Signing secret for <code>${secret.id}</code>, shown only now: store it where your receiver checks signatures.</p>
    <code class="secret" data-testid="webhook-secret">${secret.value}</code>
    <div><button type="button" onClick=${onClose}>I stored it</button></div>
  </div>`;

/** An endpoint with its state and actions: a disabled one (deliveries failed for days) receives nothing more. */
function EndpointItem({
  endpoint: e,
  onSecret,
  onChange,
}: {
  endpoint: Endpoint;
  onSecret: (value: string) => void;
  onChange: () => void;
}) {
  const [error, setError] = useState<string>();
  const act = (run: () => Promise<unknown>) => {
    setError(undefined);
    run().then(onChange, (err: unknown) => setError(messageOf(err)));
  };
  return html`
  <li>
    <div class="row spread"><code>${e.url}</code><span class="badge ${e.status}">${e.status}</span></div>
    <div class="small muted">${e.event_types.join(', ')} · ${e.id}</div>
    ${e.disabled_reason && html`<p class="small error">${e.disabled_reason}. It receives nothing more; register the URL again to resume.</p>`}
    <div class="row">
      <button type="button" aria-label=${`Rotate secret of ${e.url}`} onClick=${() =>
        confirm('Rotate the signing secret? The old one stops signing at once.') &&
        act(() =>
          call<{ secret: string }>('POST', `/webhooks/endpoints/${e.id}/rotate-secret`).then((r) => onSecret(r.secret)),
        )}>Rotate secret</button>
      <button type="button" class="quiet" aria-label=${`Delete ${e.url}`} onClick=${() =>
        confirm('Delete this endpoint? It receives nothing more.') &&
        act(() => call('DELETE', `/webhooks/endpoints/${e.id}`))}>Delete</button>
    </div>
    <${ErrorLine} error=${error} />
  </li>`;
}

function NewEndpoint({ onCreated }: { onCreated: (endpoint: { id: string; secret: string }) => void }) {
  const [error, setError] = useState<string>();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const types = data.getAll('event_types').map(String);
    setError(undefined);
    // None ticked: every type, as the API does when event_types is left out.
    call<{ id: string; secret: string }>('POST', '/webhooks/endpoints', {
      url: String(data.get('url') ?? '').trim(),
      ...(types.length ? { event_types: types } : {}),
    }).then(
      (created) => {
        form.reset();
        onCreated(created);
      },
      (err: unknown) => setError(messageOf(err)),
    );
  };
  return html`
    <form class="panel grid" onSubmit=${submit} aria-labelledby="new-ep-h">
      <h3 id="new-ep-h">Add an endpoint</h3>
      <label for="ep-url">URL</label>
      <input id="ep-url" name="url" type="url" required placeholder="https://example.com/hooks" />
      <fieldset><legend>Events (none ticked: all)</legend>
        <div class="checks">${WEBHOOK_EVENT_TYPES.map(
          (t) => html`<label class="check"><input type="checkbox" name="event_types" value=${t} /> ${t}</label>`,
        )}</div>
      </fieldset>
      <div><button type="submit">Add endpoint</button></div>
      <${ErrorLine} error=${error} />
    </form>`;
}

export function WebhooksScreen() {
  const endpoints = usePaged<Endpoint>('/webhooks/endpoints');
  const deliveries = usePaged<Delivery>('/webhooks/deliveries');
  const [error, setError] = useState<string>();
  const [secret, setSecret] = useState<{ id: string; value: string }>();
  const retry = (id: string) => {
    setError(undefined);
    call('POST', `/webhooks/deliveries/${id}/retry`).then(deliveries.reload, (e: unknown) => setError(messageOf(e)));
  };
  return html`
    <section aria-labelledby="ep-h">
      <h2 id="ep-h">Webhook endpoints</h2>
      ${secret && html`<${Secret} secret=${secret} onClose=${() => setSecret(undefined)} />`}
      <${Status} loaded=${endpoints} empty=${endpoints.data?.items.length === 0 && 'No endpoints yet. Add one below to be called when a job completes, credits run low, a community is activated, …'}>
        <ul class="list">${endpoints.data?.items.map(
          (e) =>
            html`<${EndpointItem} key=${e.id} endpoint=${e} onChange=${endpoints.reload} onSecret=${(value: string) => setSecret({ id: e.id, value })} />`,
        )}</ul>
        <${More} list=${endpoints} noun="endpoints" />
      <//>
      <${NewEndpoint} onCreated=${(created: { id: string; secret: string }) => {
        setSecret({ id: created.id, value: created.secret });
        endpoints.reload();
      }} />
    </section>
    <section aria-labelledby="del-h">
      <h2 id="del-h">Recent deliveries</h2>
      <${ErrorLine} error=${error} />
      <${Status} loaded=${deliveries} empty=${deliveries.data?.items.length === 0 && 'No deliveries yet. They are listed here, with their answers, once an event is sent to one of your endpoints.'}>
        <table class="stack">
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Retry</th></tr></thead>
          <tbody>${deliveries.data?.items.map(
            (d) => html`<tr>
            <td data-label="When">${when(d.created_at)}</td><td data-label="Event">${d.event_type}</td><td data-label="Status">${d.status}</td>
            <td data-label="Attempts" class="n">${d.attempts}</td>
            <td data-label="Answer">${d.last_status_code ?? d.last_error ?? '—'}</td>
            <td data-label="Retry"><button onClick=${() => retry(d.id)} aria-label=${`Retry delivery ${d.id}`}>Retry</button></td></tr>`,
          )}</tbody>
        </table>
        <${More} list=${deliveries} noun="deliveries" />
      <//>
    </section>`;
}
