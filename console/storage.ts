import { useEffect, useRef, useState } from 'preact/hooks';
import { call, get } from './api';
import { ErrorLine, html, messageOf, More, Status, toolLabel, usePaged, when } from './view';

interface Item {
  id: string;
  title?: string;
  tool_name?: string;
  created_at?: string;
}

/** One stored collection: list, open (the full JSON), delete where the API allows it. */
function Collection({
  title,
  path,
  canDelete,
  empty,
}: {
  title: string;
  path: string;
  canDelete: boolean;
  empty: string;
}) {
  const list = usePaged<Item>(path);
  const [open, setOpen] = useState<{ id: string; body: unknown }>();
  // What Open opened is below the list, often a screen or more away: it is brought into view and focused.
  const opened = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || !opened.current) return;
    opened.current.scrollIntoView({ block: 'start' });
    opened.current.focus();
  }, [open]);
  const [error, setError] = useState<string>();
  const fail = (e: unknown) => setError(messageOf(e));
  return html`
    <section aria-label=${title}>
      <h2>${title}</h2>
      <${ErrorLine} error=${error} />
      <${Status} loaded=${list} empty=${list.data?.items.length === 0 && empty}>
        <ul class="list">${list.data?.items.map(
          (item) => html`<li class="row spread">
          <span>${item.title ?? (item.tool_name && toolLabel(item.tool_name)) ?? item.id} <span class="small muted">${when(item.created_at)}</span></span>
          <span class="row">
            <button onClick=${() => get(`${path}/${item.id}`).then((body) => setOpen({ id: item.id, body }), fail)} aria-label=${`Open ${item.title ?? item.id}`}>Open</button>
            ${canDelete && html`<button onClick=${() => confirm('Delete it?') && call('DELETE', `${path}/${item.id}`).then(list.reload, fail)}>Delete</button>`}
          </span></li>`,
        )}</ul>
        <${More} list=${list} noun=${title.toLowerCase()} />
      <//>
      ${
        open &&
        html`<div class="panel" ref=${opened} tabindex="-1" role="region" aria-label=${`Opened: ${open.id}`}><div class="row spread"><strong>${open.id}</strong><button onClick=${() => setOpen(undefined)}>Close</button></div>
        <pre tabindex="0">${JSON.stringify(open.body, null, 2)}</pre></div>`
      }
    </section>`;
}

export const StorageScreen = () => html`
  <${Collection} title="Stored results" path="/results" canDelete=${false} empty="No stored results yet. Tool calls and finished jobs store their results here." />
  <${Collection} title="Chats" path="/chats" canDelete=${true} empty="No chats yet. Create one with POST /chats and pass its chat_id when you start a job." />`;
