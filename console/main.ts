import { render } from 'preact';
import { useState } from 'preact/hooks';
import { get, storedKey, storeKey } from './api';
import { JobsScreen } from './jobs';
import { ModerationScreen } from './moderation';
import { StorageScreen } from './storage';
import { UsageScreen } from './usage';
import { ErrorLine, html, messageOf } from './view';
import { WebhooksScreen } from './webhooks';

const SCREENS = [
  { id: 'usage', label: 'Credits', view: UsageScreen },
  { id: 'jobs', label: 'Jobs', view: JobsScreen },
  { id: 'moderation', label: 'Moderation', view: ModerationScreen },
  { id: 'storage', label: 'Results & chats', view: StorageScreen },
  { id: 'webhooks', label: 'Webhooks', view: WebhooksScreen },
] as const;

function KeyEntry({ onKey }: { onKey: () => void }) {
  const [error, setError] = useState<string>();
  const submit = (e: Event) => {
    e.preventDefault();
    const key = String(new FormData(e.currentTarget as HTMLFormElement).get('key') ?? '').trim();
    storeKey(key);
    // A key is only kept once the API accepts it.
    get('/users/me').then(onKey, (err: unknown) => {
      storeKey('');
      setError(messageOf(err));
    });
  };
  return html`
    <form class="panel key" onSubmit=${submit}>
      <h2>Your API key</h2>
      <p>Paste the key <code>npm start</code> printed (or your own). It stays in this tab only and is sent in the Authorization header.</p>
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required />
      <button type="submit">Open the console</button>
      <${ErrorLine} error=${error} />
    </form>`;
}

function App() {
  const [hasKey, setHasKey] = useState(Boolean(storedKey()));
  const [screen, setScreen] = useState<string>(location.hash.slice(1) || 'usage');
  const current = SCREENS.find((s) => s.id === screen) ?? SCREENS[0];
  const go = (id: string) => {
    setScreen(id);
    history.replaceState(null, '', `#${id}`);
  };
  return html`
    <header class="row spread">
      <h1>Console</h1>
      ${
        hasKey &&
        html`<button onClick=${() => {
          storeKey('');
          setHasKey(false);
        }}>Forget key</button>`
      }
    </header>
    ${
      hasKey
        ? html`
      <nav aria-label="Screens"><ul class="tabs">${SCREENS.map(
        (s) => html`<li>
        <a href=${`#${s.id}`} aria-current=${s.id === current.id ? 'page' : undefined} onClick=${(e: Event) => {
          e.preventDefault();
          go(s.id);
        }}>${s.label}</a></li>`,
      )}</ul></nav>
      <main><${current.view} key=${current.id} /></main>`
        : html`<main><${KeyEntry} onKey=${() => setHasKey(true)} /></main>`
    }`;
}

const root = document.getElementById('app');
if (!root) throw new Error('The console page has no #app element');
render(html`<${App} />`, root);
