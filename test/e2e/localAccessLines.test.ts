import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * `npm start` (default level INFO) prints no JSON access line per request among the keys and the
 * stand-ins' lines the guide (docs/guide) asks a person to watch; `LOG_LEVEL=debug npm start` shows them. The
 * deployed functions keep them at INFO (the latency alarm's runbook reads their durationMs).
 */
vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
vi.stubEnv('ACCESS_LOG_LEVEL', '');
vi.resetModules();
const { useLocalLogging } = await import('#bin/local/runtime');
const { startTestApi } = await import('#test/support/api');
const api = await startTestApi();

const captured: string[] = [];
const write = process.stdout.write.bind(process.stdout);
beforeAll(() => {
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
});
afterAll(() => {
  process.stdout.write = write;
  vi.unstubAllEnvs();
});
const accessLines = () =>
  captured
    .join('')
    .split('\n')
    .filter((l) => l.includes('"message":"request"'));

describe('access lines', () => {
  it('are at INFO where the local server is not the host (the deployed functions, the suites)', async () => {
    captured.length = 0;
    expect((await api.call('GET', '/health')).status).toBe(200);
    expect(accessLines()).toHaveLength(1);
  });

  it('are left out at npm start’s default level', async () => {
    useLocalLogging();
    captured.length = 0;
    expect((await api.call('GET', '/health')).status).toBe(200);
    expect((await api.call('GET', '/no-such-path')).status).toBe(404);
    expect(accessLines()).toEqual([]);
  });

  it('are written with LOG_LEVEL=debug, as a person types it', async () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', '');
    vi.stubEnv('LOG_LEVEL', 'debug');
    vi.resetModules();
    const runtime = await import('#bin/local/runtime');
    const { createLocalApi, listen } = await import('#bin/local/server');
    runtime.useLocalLogging();
    const ports = runtime.installLocalPorts(undefined, { realDns: false });
    const server = createLocalApi();
    try {
      const port = await listen(server, 0);
      captured.length = 0;
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
      expect(accessLines()).toHaveLength(1);
      expect(JSON.parse(accessLines()[0])).toMatchObject({ level: 'DEBUG', route: 'GET /api/v1/health', status: 200 });
    } finally {
      ports.queue.stop();
      ports.webhookQueue.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // POWERTOOLS_LOG_LEVEL, the stack's setting, still comes first.
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'warn');
    vi.resetModules();
    expect((await import('#shared/observability/logger')).logger.getLevelName()).toBe('WARN');
  });
});
