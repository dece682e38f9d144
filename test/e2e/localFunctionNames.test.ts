import { afterAll, expect, it, vi } from 'vitest';
import { startTestApi } from '#test/support/api';
import { runPollSchedule } from '#bin/local/runtime';

/**
 * The local server runs every function in one process with one logger: each invocation must name its
 * own function, or a poll's error line carries whichever function the last API request ran (as it did).
 * Reddit's operator poll here reaches a port nothing listens on, so the worker writes a poll error line.
 */
const closed = 'http://127.0.0.1:9';
for (const [name, value] of Object.entries({
  REDDIT_CLIENT_ID: 'names-client',
  REDDIT_CLIENT_SECRET: 'names-secret',
  REDDIT_REFRESH_TOKEN: 'names-refresh',
  REDDIT_USERNAME: 'names_bot',
  REDDIT_API_BASE: closed,
  REDDIT_AUTH_BASE: closed,
}))
  vi.stubEnv(name, value);
const api = await startTestApi();
afterAll(() => {
  vi.unstubAllEnvs();
});

const captured: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
const tap = (original: typeof process.stdout.write) =>
  ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(String(chunk));
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;

it('a poll’s error line names the function that polled, not the last API request’s', async () => {
  expect((await api.call('GET', '/health')).status).toBe(200);
  process.stdout.write = tap(writes.out);
  process.stderr.write = tap(writes.err);
  try {
    await runPollSchedule();
    await api.ports.queue.drained();
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
  const lines = captured
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const pollLines = lines.filter((l) => /poll/.test(String(l.message)));
  expect(pollLines.length, JSON.stringify(lines)).toBeGreaterThan(0);
  for (const line of pollLines) expect(line.function_name, String(line.message)).toBe('worker');
});
