import { useState } from 'preact/hooks';
import { call, get } from './api';
import { platformFacts, type Step } from './platforms';
import { ErrorLine, html, messageOf, More, num, Status, useLoad, usePaged, when } from './view';

const BASE = '/integrations/moderation';
interface Community {
  id: string;
  name: string;
  community_type: string;
  status: string;
  activation_token: string | null;
  install_url: string | null;
  authorize_url: string | null;
}
interface Signal {
  id: string;
  label: string;
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
  signals: Signal[];
  delivery: { status: string; error: string | null } | null;
  undo: { status: string; at: string } | null;
  undoable: boolean;
}
interface ModStatus {
  status: string;
  connection_state: string;
  connection_error: string | null;
  metrics: {
    messages_scanned: number;
    messages_flagged: number;
    actions: Record<'delete' | 'warn' | 'mute' | 'ban', number>;
    actions_undone: number;
    examples_taught: number;
  };
  audit_logs: Audit[];
  platform: { chat_id: string | null; alert_chat_id: string | null; configured: boolean } | null;
}
interface Rules {
  mode: 'enforce' | 'observe';
  sensitivity: 'low' | 'medium' | 'high';
  official_domains: string[];
  official_handles: string[];
  link_allowlist: string[];
  blocked_words: string[];
  warn_limit: number;
  new_member_days: number;
  captcha: { enabled: boolean; timeout_seconds: number };
}
interface Verdict {
  verdict: 'spam' | 'ham';
  action: string;
  score: number;
  signals: Signal[];
}

const pct = (score: number) => `${Math.round(score * 100)}%`;
const ACTION_WORDS: Record<string, string> = { delete: 'Removed', warn: 'Warned', mute: 'Muted', ban: 'Banned' };
const actionWord = (action: string) => (Object.hasOwn(ACTION_WORDS, action) ? ACTION_WORDS[action] : action);
/** How the action went on the platform, in words (an entry the community's own bot acted on has none). */
const DELIVERY_WORDS: Record<string, string> = {
  delivered: 'applied on the platform',
  pending: 'being applied',
  failed: 'the platform refused it',
  not_configured: 'not sent: the platform is not set up on this deployment',
  observe: 'observe mode: nothing sent',
};
const deliveryWords = (d: { status: string; error: string | null }) =>
  (Object.hasOwn(DELIVERY_WORDS, d.status) ? DELIVERY_WORDS[d.status] : d.status) + (d.error ? ` (${d.error})` : '');

/** Runs an API call with its error shown beside the part of the screen that made it. */
function useAction() {
  const [error, setError] = useState<string>();
  const act = <T>(run: () => Promise<T>, after: (value: T) => void) => {
    setError(undefined);
    run().then(after, (e: unknown) => setError(messageOf(e)));
  };
  return { error, act };
}

const StepItem = ({ step }: { step: Step }) => html`<li>
  ${step.text}
  ${step.command && html`<div><code class="command">${step.command}</code></div>`}
  ${step.link && html`<div><a href=${step.link.href} target="_blank" rel="noopener noreferrer">${step.link.label}</a></div>`}
</li>`;

/** How to connect the community on its platform, and a fresh token (the old one stops binding). */
function Connect({
  community,
  connected,
  onFresh,
}: {
  community: Community;
  connected: boolean;
  onFresh: (c: Community) => void;
}) {
  const facts = platformFacts(community.community_type);
  const { error, act } = useAction();
  const [fresh, setFresh] = useState(false);
  const token = community.activation_token;
  // A connected community's token has bound it: its steps only make sense with a fresh one.
  const steps = token && (!connected || fresh) ? facts.connect({ ...community, token }) : [];
  return html`
    <details class="part" open=${!connected}>
      <summary>${connected ? `Connect elsewhere on ${facts.label}, or name an alert chat` : `Connect on ${facts.label}`}</summary>
      ${steps.length > 0 && html`<ol class="steps">${steps.map((s) => html`<${StepItem} step=${s} />`)}</ol>`}
      ${connected && !fresh && html`<p class="small">Its token has bound it. A fresh token binds it somewhere else or names an alert chat; the old token stops working.</p>`}
      <button type="button" onClick=${() =>
        act(
          () => call<Community>('POST', `${BASE}/communities/${community.id}/activation-token`),
          (c) => {
            setFresh(true);
            onFresh(c);
          },
        )}>New activation token</button>
      <${ErrorLine} error=${error} />
    </details>`;
}

/** One entry of the review list: what was done and why, with "Not spam" (undo where possible, and teach). */
function ReviewItem({ community, entry: a, onChange }: { community: Community; entry: Audit; onChange: () => void }) {
  const { error, act } = useAction();
  const [taught, setTaught] = useState(false);
  // The undo teaches the message as not spam itself; where nothing can be undone, the message is taught alone.
  const notSpam = () =>
    a.undoable
      ? act(() => call('POST', `${BASE}/communities/${community.id}/audit-logs/${a.id}/undo`), onChange)
      : act(
          () =>
            call('POST', `${BASE}/communities/${community.id}/examples`, {
              examples: [{ text: a.message_excerpt, label: 'ham' }],
            }),
          () => setTaught(true),
        );
  return html`<li class="review">
    <div class="row spread"><strong>${actionWord(a.action)} · ${a.username}</strong><span class="small muted">${when(a.at)}</span></div>
    <div class="small">${a.score === null ? a.reason : html`Score <b>${pct(a.score)}</b> · ${a.reason}`}${a.delivery ? ` · ${deliveryWords(a.delivery)}` : ''}</div>
    ${a.signals.length > 0 && html`<ul class="signals small" aria-label="Signals">${a.signals.map((g) => html`<li>${g.label}</li>`)}</ul>`}
    ${a.message_excerpt && html`<blockquote class="small">${a.message_excerpt}</blockquote>`}
    ${
      a.undo
        ? html`<div class="small done">Undone ${when(a.undo.at)} (${a.undo.status}), taught as not spam</div>`
        : taught
          ? html`<div class="small done">Taught as not spam${a.action === 'warn' ? ' (a warning sent cannot be taken back)' : ' (the platform cannot restore it)'}</div>`
          : (a.undoable || a.message_excerpt) &&
            html`<div class="row"><button type="button" onClick=${notSpam} aria-label=${`Not spam: ${a.action} of ${a.username}`}>Not spam</button>
            <span class="small muted">${a.undoable ? `undoes the ${a.action} and teaches the message` : 'teaches the message (this action cannot be undone here)'}</span></div>`
    }
    <${ErrorLine} error=${error} />
  </li>`;
}

/** A box that runs check (nothing is acted on) and teaches the message either way. */
function TryMessage({ community }: { community: Community }) {
  const { error, act } = useAction();
  const [text, setText] = useState('');
  const [result, setResult] = useState<Verdict>();
  const [taught, setTaught] = useState<string>();
  const id = `try-${community.id}`;
  const check = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    setTaught(undefined);
    act(
      () =>
        call<{ results: Verdict[] }>('POST', `${BASE}/communities/${community.id}/check`, {
          messages: [{ text, is_new_member: data.get('new') === 'on' }],
        }),
      (r) => setResult(r.results[0]),
    );
  };
  const teach = (label: 'spam' | 'ham') =>
    act(
      () => call('POST', `${BASE}/communities/${community.id}/examples`, { examples: [{ text, label }] }),
      () => setTaught(label === 'spam' ? 'Taught as spam' : 'Taught as not spam'),
    );
  return html`
    <details class="part">
      <summary>Try a message</summary>
      <form class="grid" onSubmit=${check}>
        <label for=${id}>Message</label>
        <textarea id=${id} rows="3" required maxlength="4096" value=${text} onInput=${(e: Event) => {
          setText((e.currentTarget as HTMLTextAreaElement).value);
          setResult(undefined);
        }}></textarea>
        <label class="check"><input type="checkbox" name="new" /> From a new member</label>
        <div class="row"><button type="submit">Check</button></div>
      </form>
      ${
        result &&
        html`<div class="verdict ${result.verdict}" role="status" data-testid="verdict">
          <strong>${result.verdict === 'spam' ? `Spam: would ${result.action}` : 'Allowed'}</strong> · score ${pct(result.score)}
          ${result.signals.length > 0 && html`<ul class="signals small" aria-label="Signals">${result.signals.map((g) => html`<li>${g.label}</li>`)}</ul>`}
          <div class="row">
            <button type="button" onClick=${() => teach('spam')}>Mark as spam</button>
            <button type="button" class="quiet" onClick=${() => teach('ham')}>Mark as not spam</button>
          </div>
          ${taught && html`<p class="small done">${taught}: check again to see what it learned.</p>`}
        </div>`
      }
      <${ErrorLine} error=${error} />
    </details>`;
}

const lines = (list: string[]) => list.join('\n');
const listOf = (text: FormDataEntryValue | null) =>
  String(text ?? '')
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The rules, read when first opened (a page of communities would otherwise read every one's rules at once). */
function RulesPart({ community }: { community: Community }) {
  const [opened, setOpened] = useState(false);
  return html`
    <details class="part" onToggle=${(e: Event) => (e.currentTarget as HTMLDetailsElement).open && setOpened(true)}>
      <summary>Rules</summary>
      ${opened && html`<${RulesForm} community=${community} />`}
    </details>`;
}

/** The rules document as a form; captcha only where the platform can run one. */
function RulesForm({ community }: { community: Community }) {
  const rules = useLoad(() => get<Rules>(`${BASE}/communities/${community.id}/rules`), [community.id]);
  const { error, act } = useAction();
  const [saved, setSaved] = useState(false);
  const captcha = platformFacts(community.community_type).captcha;
  const f = (name: string) => `${name}-${community.id}`;
  const save = (e: Event) => {
    e.preventDefault();
    const d = new FormData(e.currentTarget as HTMLFormElement);
    setSaved(false);
    const body = {
      mode: d.get('mode'),
      sensitivity: d.get('sensitivity'),
      official_domains: listOf(d.get('official_domains')),
      official_handles: listOf(d.get('official_handles')),
      link_allowlist: listOf(d.get('link_allowlist')),
      blocked_words: listOf(d.get('blocked_words')),
      warn_limit: Number(d.get('warn_limit')),
      new_member_days: Number(d.get('new_member_days')),
      ...(captcha
        ? { captcha: { enabled: d.get('captcha') === 'on', timeout_seconds: Number(d.get('captcha_timeout')) } }
        : {}),
    };
    act(
      () => call('PUT', `${BASE}/communities/${community.id}/rules`, body),
      () => {
        setSaved(true);
        rules.reload();
      },
    );
  };
  const r = rules.data;
  return html`
    <div>
      ${r && html`<p class="small muted">Now: ${r.mode}, ${r.sensitivity} sensitivity.</p>`}
      <${Status} loaded=${rules}>${
        r &&
        html`<form class="grid rules" onSubmit=${save} onInput=${() => setSaved(false)}>
          <label for=${f('mode')}>Mode</label>
          <select id=${f('mode')} name="mode" value=${r.mode}>
            <option value="enforce">enforce: act on the platform</option>
            <option value="observe">observe: decide and log only</option>
          </select>
          <label for=${f('sensitivity')}>Sensitivity</label>
          <select id=${f('sensitivity')} name="sensitivity" value=${r.sensitivity}>
            <option value="low">low: act only when sure</option>
            <option value="medium">medium</option>
            <option value="high">high: act soonest</option>
          </select>
          <label for=${f('official_domains')}>Official domains <span class="small muted">(one a line: links to them never count, look-alikes do)</span></label>
          <textarea id=${f('official_domains')} name="official_domains" rows="2">${lines(r.official_domains)}</textarea>
          <label for=${f('official_handles')}>Official handles <span class="small muted">(one a line, e.g. @project)</span></label>
          <textarea id=${f('official_handles')} name="official_handles" rows="2">${lines(r.official_handles)}</textarea>
          <label for=${f('link_allowlist')}>Allowed link domains <span class="small muted">(one a line)</span></label>
          <textarea id=${f('link_allowlist')} name="link_allowlist" rows="2">${lines(r.link_allowlist)}</textarea>
          <label for=${f('blocked_words')}>Blocked words <span class="small muted">(one a line)</span></label>
          <textarea id=${f('blocked_words')} name="blocked_words" rows="2">${lines(r.blocked_words)}</textarea>
          <label for=${f('warn_limit')}>Warnings before a mute</label>
          <input id=${f('warn_limit')} name="warn_limit" type="number" min="0" max="10" value=${r.warn_limit} />
          <label for=${f('new_member_days')}>Days a member counts as new</label>
          <input id=${f('new_member_days')} name="new_member_days" type="number" min="0" max="365" value=${r.new_member_days} />
          ${
            captcha &&
            html`<label class="check"><input type="checkbox" name="captcha" checked=${r.captcha.enabled} /> Captcha for new members</label>
            <label for=${f('captcha_timeout')}>Seconds to answer the captcha</label>
            <input id=${f('captcha_timeout')} name="captcha_timeout" type="number" min="30" max="86400" value=${r.captcha.timeout_seconds} />`
          }
          <div class="row"><button type="submit">Save rules</button>${saved && html`<span class="done" role="status">Saved</span>`}</div>
        </form>`
      }<//>
      <${ErrorLine} error=${error} />
    </div>`;
}

const STATE_WORDS: Record<string, string> = {
  connected: 'Connected',
  pending_activation: 'Waiting to be connected',
  disconnected: 'Disconnected (expired)',
  failing: 'Connected, but the platform cannot be read',
};

function CommunityPanel({ community: initial }: { community: Community }) {
  const [community, setCommunity] = useState(initial);
  const status = useLoad(
    () => get<ModStatus>(`${BASE}/status?community_id=${community.id}&include_logs=50`),
    [community.id],
  );
  const facts = platformFacts(community.community_type);
  const s = status.data;
  const removed = s ? Object.values(s.metrics.actions).reduce((a, b) => a + b, 0) : 0;
  const logs = [...(s?.audit_logs ?? [])].sort((a, b) => b.at.localeCompare(a.at));
  const state = s?.connection_state ?? community.status;
  return html`
    <article class="panel community" aria-label=${community.name}>
      <div class="row spread">
        <h3>${community.name}</h3>
        <span class="row"><span class="badge platform">${facts.label}</span><span class="badge ${state}">${Object.hasOwn(STATE_WORDS, state) ? STATE_WORDS[state] : state}</span></span>
      </div>
      ${s?.connection_error && html`<p class="small error">${s.connection_error}</p>`}
      <${Connect} community=${community} connected=${state === 'connected' || state === 'failing'} onFresh=${setCommunity} />
      <${Status} loaded=${status}>${
        s &&
        html`
        <dl class="cards">
          <div><dt>Messages scanned</dt><dd>${num(s.metrics.messages_scanned)}</dd></div>
          <div><dt>Removed or acted on</dt><dd>${num(removed)}</dd></div>
          <div><dt>Undone (wrongly removed)</dt><dd>${num(s.metrics.actions_undone)}${removed > 0 ? ` (${((100 * s.metrics.actions_undone) / removed).toFixed(1)}%)` : ''}</dd></div>
          <div><dt>Examples taught</dt><dd>${num(s.metrics.examples_taught)}</dd></div>
        </dl>
        <h4>Review, newest first</h4>
        ${
          logs.length === 0
            ? html`<p class="empty">No actions yet. What the bot removes, mutes or bans shows here with its score and signals, to correct in one click.</p>`
            : html`<ul class="list">${logs.map((a) => html`<${ReviewItem} key=${a.id} community=${community} entry=${a} onChange=${status.reload} />`)}</ul>`
        }`
      }<//>
      <${TryMessage} community=${community} />
      <${RulesPart} community=${community} />
    </article>`;
}

export function ModerationScreen() {
  const communities = usePaged<Community>(`${BASE}/communities`);
  return html`
    <section aria-labelledby="mod-h">
      <h2 id="mod-h">Moderation</h2>
      <${Status} loaded=${communities} empty=${communities.data?.items.length === 0 && 'No communities yet. Create one (POST /integrations/moderation/communities with a name, project_name and type); it shows here with how to connect it.'}>
        ${communities.data?.items.map((c) => html`<${CommunityPanel} key=${c.id} community=${c} />`)}
        <${More} list=${communities} noun="communities" />
      <//>
    </section>`;
}
