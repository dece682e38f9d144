import { useState } from 'preact/hooks';
import { call, get } from './api';
import { ErrorLine, html, messageOf, num, Status, useLoad, when } from './view';

const BASE = '/integrations/moderation';
interface Community {
  id: string;
  name?: string;
  platform?: string;
  status?: string;
}
interface Audit {
  id: string;
  at: string;
  username: string;
  action: string;
  rule: string;
  reason: string;
  message_excerpt: string;
  score: number | null;
  signals: { id: string; label: string }[];
  delivery: { status: string } | null;
  undo: { status: string; at: string } | null;
}
interface ModStatus {
  status: string;
  connection_state: string;
  metrics: { messages_scanned: number; messages_flagged: number; spam_rate: number; members_joined: number };
  audit_logs: Audit[];
}

function CommunityPanel({ community }: { community: Community }) {
  const status = useLoad(
    () => get<ModStatus>(`${BASE}/status?community_id=${community.id}&include_logs=50`),
    [community.id],
  );
  const rules = useLoad(
    () => get<{ mode: 'enforce' | 'observe' }>(`${BASE}/communities/${community.id}/rules`),
    [community.id],
  );
  const [error, setError] = useState<string>();
  // Entries marked "not spam" in this view (a delete or warn has nothing to undo on the platform; the mark teaches).
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  const markNotSpam = (a: Audit) =>
    act(
      () =>
        call('POST', `${BASE}/communities/${community.id}/examples`, {
          examples: [{ text: a.message_excerpt, label: 'ham' }],
        }),
      () => setMarked(new Set([...marked, a.id])),
    );
  const act = (run: () => Promise<unknown>, after: () => void) => {
    setError(undefined);
    run().then(after, (e: unknown) => setError(messageOf(e)));
  };
  const s = status.data;
  const logs = [...(s?.audit_logs ?? [])].sort((a, b) => b.at.localeCompare(a.at));
  const mode = rules.data?.mode;
  return html`
    <article class="panel" aria-label=${community.name ?? community.id}>
      <div class="row spread"><h3>${community.name ?? community.id}</h3><span class="muted">${community.platform ?? ''}</span></div>
      <${ErrorLine} error=${error} />
      <${Status} loaded=${status}>${
        s &&
        html`
        <dl class="cards">
          <div><dt>Status</dt><dd>${s.status} (${s.connection_state})</dd></div>
          <div><dt>Messages scanned</dt><dd>${num(s.metrics.messages_scanned)}</dd></div>
          <div><dt>Flagged</dt><dd>${num(s.metrics.messages_flagged)} (${(s.metrics.spam_rate * 100).toFixed(1)}%)</dd></div>
          <div><dt>Rules</dt><dd>${mode ?? '…'}
            ${
              mode &&
              html` <button onClick=${() => act(() => call('PUT', `${BASE}/communities/${community.id}/rules`, { mode: mode === 'enforce' ? 'observe' : 'enforce' }), rules.reload)}>
              Switch to ${mode === 'enforce' ? 'observe' : 'enforce'}</button>`
            }</dd></div>
        </dl>
        <h4>Audit log, newest first</h4>
        ${
          logs.length === 0
            ? html`<p class="empty">No actions yet. Moderated messages appear here once events arrive (POST ${BASE}/communities/{id}/events, or the platform's bot).</p>`
            : html`
          <ul class="list">${logs.map(
            (a) => html`<li>
            <div class="row spread"><strong>${a.action}${a.delivery ? ` (${a.delivery.status})` : ''} · ${a.username}</strong><span class="small muted">${when(a.at)}</span></div>
            <div class="small">${a.rule}: ${a.reason}${a.score === null ? '' : ` · score ${Math.round(a.score * 100)}%`}</div>
            ${a.signals.length > 1 && html`<div class="small muted">Signals: ${a.signals.map((g) => g.label).join('; ')}</div>`}
            ${a.message_excerpt && html`<blockquote class="small">${a.message_excerpt}</blockquote>`}
            ${
              a.undo
                ? html`<div class="small">Undone ${when(a.undo.at)} (${a.undo.status})</div>`
                : (a.action === 'mute' || a.action === 'ban') &&
                  html`<button onClick=${() => act(() => call('POST', `${BASE}/communities/${community.id}/audit-logs/${a.id}/undo`), status.reload)} aria-label=${`Undo ${a.action} of ${a.username}`}>Undo</button>`
            }
            ${
              (a.action === 'delete' || a.action === 'warn') &&
              a.message_excerpt &&
              (marked.has(a.id)
                ? html`<div class="small">Marked not spam: the community learned it</div>`
                : html`<button onClick=${() => markNotSpam(a)} aria-label=${`Not spam: ${a.action} of ${a.username}`}>Not spam</button>`)
            }
          </li>`,
          )}</ul>`
        }
      `
      }<//>
    </article>`;
}

export function ModerationScreen() {
  const communities = useLoad(() => get<{ items: Community[] }>(`${BASE}/communities?limit=20`));
  return html`
    <section aria-labelledby="mod-h">
      <h2 id="mod-h">Moderation</h2>
      <${Status} loaded=${communities} empty=${communities.data?.items.length === 0 && `No communities yet. Create one with POST ${BASE}/communities; its status and audit log show here.`}>
        ${communities.data?.items.map((c) => html`<${CommunityPanel} key=${c.id} community=${c} />`)}
      <//>
    </section>`;
}
