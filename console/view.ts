import { h } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import { ApiError } from './api';

/** Tagged templates instead of JSX: no JSX transform, and htm is under 1 KB. */
export const html = htm.bind(h);

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` on mount and whenever `deps` change; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (e: unknown) => live && setState({ error: messageOf(e), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

export const messageOf = (e: unknown) =>
  e instanceof ApiError ? `${e.message} (${e.code})` : e instanceof Error ? e.message : String(e);

export const ErrorLine = ({ error }: { error?: string }) =>
  error ? html`<p class="error" role="alert">${error}</p>` : null;

export function Status<T>({
  loaded,
  empty,
  children,
}: {
  loaded: Loaded<T>;
  empty?: string | false;
  children?: unknown;
}) {
  if (loaded.error) return html`<${ErrorLine} error=${loaded.error} />`;
  if (loaded.loading && loaded.data === undefined) return html`<p class="muted">Loading…</p>`;
  if (empty) return html`<p class="empty">${empty}</p>`;
  return children;
}

export const when = (at: string | null | undefined) => (at ? new Date(at).toLocaleString() : '—');
export const num = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString());
