import { h } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import { ApiError, get } from './api';

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

/** A page of a list as the API answers it: offset lists say their total, cursor lists their next cursor. */
interface Page<T> {
  items: T[];
  total?: number;
  next_cursor?: string | null;
}
export interface Paged<T> extends Loaded<{ items: T[]; total?: number }> {
  /** Loads the next page onto the list; undefined on the last page. */
  more?: () => void;
}

/** Every list's page size: the console shows 20 at a time and fetches more on demand. */
export const PAGE_SIZE = 20;

/**
 * A list read page by page (`limit` and `offset`, or the `cursor` the last page named): the first
 * page on mount and on `reload`, more onto it with `more`, so nothing past the first 20 is out of reach.
 */
export function usePaged<T>(path: string, deps: unknown[] = []): Paged<T> {
  const sep = path.includes('?') ? '&' : '?';
  const [extra, setExtra] = useState<{ items: T[]; next?: string | number }>({ items: [] });
  const first = useLoad(async () => {
    const page = await get<Page<T>>(`${path}${sep}limit=${PAGE_SIZE}`);
    setExtra({ items: [], next: nextOf(page, PAGE_SIZE) });
    return page;
  }, deps);
  const [error, setError] = useState<string>();
  const items = [...(first.data?.items ?? []), ...extra.items];
  const next = extra.next;
  const more =
    next === undefined
      ? undefined
      : () => {
          const at = typeof next === 'number' ? `offset=${next}` : `cursor=${encodeURIComponent(next)}`;
          get<Page<T>>(`${path}${sep}limit=${PAGE_SIZE}&${at}`).then(
            (page) =>
              setExtra((e) => ({
                items: [...e.items, ...page.items],
                next: nextOf(page, (typeof next === 'number' ? next : 0) + PAGE_SIZE),
              })),
            (e: unknown) => setError(messageOf(e)),
          );
        };
  return {
    ...first,
    error: first.error ?? error,
    data: first.data && { items, total: first.data.total },
    more,
  };
}

function nextOf<T>(page: Page<T>, offset: number): string | number | undefined {
  if ('next_cursor' in page) return page.next_cursor ?? undefined;
  return page.total !== undefined && offset < page.total ? offset : undefined;
}

/** "Show more" under a paged list, saying how many are shown of how many. */
export const More = ({ list, noun }: { list: Paged<unknown>; noun: string }) => {
  const shown = list.data?.items.length ?? 0;
  if (!list.more) return shown > PAGE_SIZE ? html`<p class="small muted">All ${shown} ${noun} shown.</p>` : null;
  const of = list.data?.total === undefined ? '' : ` of ${list.data.total}`;
  return html`<div class="row more"><span class="small muted">${shown}${of} ${noun} shown</span>
    <button type="button" onClick=${list.more}>Show more ${noun}</button></div>`;
};

/** The names people know the API's tool ids by (usage by tool, stored results); others are spelled out. */
const TOOL_LABELS = new Map([
  ['bd_job', 'Enrichment jobs'],
  ['moderation_community', 'Community moderation'],
  ['growth_run', 'Growth runs'],
  ['growth_plan', 'Growth plans'],
  ['intelligence_result', 'Intelligence expansions'],
  ['vc-shortlist-v1', 'VC shortlist'],
  ['builder-discovery-v1', 'Builder discovery'],
  ['company-people-discovery-v1', 'Company people discovery'],
  ['warm-intro-paths-v1', 'Warm intro paths'],
  ['kol-discovery-v1', 'KOL discovery'],
  ['user-prospect-v1', 'User prospects'],
  ['hackathon-builder-v1', 'Hackathon builders'],
]);
export const toolLabel = (id: string) => {
  const known = TOOL_LABELS.get(id);
  if (known) return known;
  const words = id
    .replace(/-v\d+$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
