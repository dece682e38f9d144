import { describe, expect, it } from 'vitest';
import { runSweeps, sweep } from '#shared/domain/sweeps';

/** Captures the structured lines the service logger writes while `act` runs. */
async function logLinesOf(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    for (const line of String(chunk).split('\n')) if (line.startsWith('{"level"')) lines.push(JSON.parse(line));
    return (write as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    await act();
  } finally {
    process.stdout.write = write;
  }
  return lines;
}

describe('a table of sweeps', () => {
  const sweeps = {
    found: sweep({ run: async () => ({ requeued: 2 }), log: 'found work', didWork: (r) => r.requeued > 0 }),
    idle: sweep({ run: async () => ({ stalled: 0, note: 'x' }), log: 'found nothing', didWork: (r) => r.stalled > 0 }),
  };

  it("answers each sweep's report under its row's name", async () => {
    await expect(runSweeps(sweeps)).resolves.toEqual({ found: { requeued: 2 }, idle: { stalled: 0, note: 'x' } });
  });

  it('logs only the sweeps that did something, with their report', async () => {
    const { logger } = await import('#shared/observability/logger');
    const level = logger.getLevelName();
    logger.setLogLevel('INFO');
    try {
      const lines = await logLinesOf(() => runSweeps(sweeps));
      expect(lines.map((l) => [l.message, l.requeued])).toEqual([['found work', 2]]);
    } finally {
      logger.setLogLevel(level);
    }
  });

  it('runs the sweeps side by side, and a failing one fails the run (the schedule retries it)', async () => {
    const started: string[] = [];
    const slow = sweep({
      run: async () => {
        started.push('slow');
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { n: 0 };
      },
      log: 'slow',
      didWork: () => false,
    });
    const broken = sweep({
      run: async () => {
        started.push('broken');
        throw new Error('table unavailable');
      },
      log: 'broken',
      didWork: () => false,
    });
    await expect(runSweeps({ slow, broken })).rejects.toThrow('table unavailable');
    expect(started).toEqual(['slow', 'broken']);
  });
});
