/**
 * Every call the console makes: same origin, the pasted key in the Authorization header (never in
 * an address, so it stays out of logs and history). The key lives in sessionStorage: gone when the tab closes.
 */
const KEY_SLOT = 'console.apiKey';
/** The page is <api>/console, so the API is the folder it sits in (behind any stage prefix). */
export const API_BASE = new URL('.', location.href).href.replace(/\/$/, '');

export const storedKey = () => sessionStorage.getItem(KEY_SLOT) ?? '';
export const storeKey = (key: string) =>
  key ? sessionStorage.setItem(KEY_SLOT, key) : sessionStorage.removeItem(KEY_SLOT);

/** An API error, carrying the error body's message so the screen can show it as the API wrote it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as
    | { error?: { code?: string; message?: string } }
    | undefined;
  return new ApiError(
    response.status,
    body?.error?.message ?? `${response.status} ${response.statusText}`,
    body?.error?.code ?? 'http_error',
  );
}

/** One request with the key; a non-2xx answer throws its ApiError. */
async function send(method: string, path: string, body: unknown, accept: string): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${storedKey()}`, accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'POST') headers['idempotency-key'] = crypto.randomUUID();
  const response = await fetch(API_BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await send(method, path, body, 'application/json');
  if (response.status === 204) return undefined as T;
  return response.json() as Promise<T>;
}

export const get = <T>(path: string) => call<T>('GET', path);

/**
 * Saves a file fetched with the key (a plain link could not send the header), byte for byte as the
 * API sent it: read as text whatever its type, so a JSON export is not parsed into an object first
 * (a Blob of an object is the text "[object Object]").
 */
export async function download(path: string, name: string, accept: string): Promise<void> {
  const text = await (await send('GET', path, undefined, accept)).text();
  const url = URL.createObjectURL(new Blob([text], { type: accept }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A stream holds its connection for as long as the job runs, and a browser opens at most 6 connections
 * to one host over HTTP/1.1 (the local server): past that many running jobs, every other call (start,
 * cancel, export) waited behind the streams. At most MAX_STREAMS are open at once; the others wait
 * for one to end, their bars showing the list's state meanwhile.
 */
const MAX_STREAMS = 4;
let openStreams = 0;
const waitingStreams: (() => void)[] = [];

function streamPlace(signal: AbortSignal): Promise<void> {
  if (openStreams < MAX_STREAMS) {
    openStreams += 1;
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const start = () => {
      signal.removeEventListener('abort', drop);
      openStreams += 1;
      resolve();
    };
    const drop = () => {
      waitingStreams.splice(waitingStreams.indexOf(start), 1);
      reject(signal.reason);
    };
    waitingStreams.push(start);
    signal.addEventListener('abort', drop, { once: true });
  });
}

function leaveStreamPlace(): void {
  openStreams -= 1;
  waitingStreams.shift()?.();
}

/**
 * Server-sent events read from a fetch body: EventSource cannot send an Authorization header. Calls
 * onEvent for each event until the stream ends or `signal` aborts it (waiting first for a place).
 */
export async function followEvents(
  path: string,
  onEvent: (event: string, data: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  await streamPlace(signal);
  try {
    await readEvents(path, onEvent, signal);
  } finally {
    leaveStreamPlace();
  }
}

async function readEvents(
  path: string,
  onEvent: (event: string, data: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(API_BASE + path, {
    headers: { authorization: `Bearer ${storedKey()}`, accept: 'text/event-stream' },
    signal,
  });
  if (!response.ok || !response.body) throw await errorOf(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(event, JSON.parse(data.join('\n')));
    }
  }
}
