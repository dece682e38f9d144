/**
 * How a fast-check model test is run and inspected: `<PREFIX>_RUNS` widens it, `<PREFIX>_SEED` reproduces a
 * run fast-check reported, and `<PREFIX>_STATS=1` prints what the runs went through (the README names each
 * test's prefix).
 */
export function modelRuns(prefix: string, defaultRuns: number) {
  const seed = process.env[`${prefix}_SEED`];
  const tally = new Map<string, number>();
  return {
    options: { numRuns: Number(process.env[`${prefix}_RUNS`] ?? defaultRuns), ...(seed ? { seed: Number(seed) } : {}) },
    /** Counts one more of `what` (a kind of request and its answer, a state a run ended in). */
    count: (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1),
    /** The counts, one line each, when `<PREFIX>_STATS=1`. */
    printStats: () => {
      if (process.env[`${prefix}_STATS`] !== '1') return;
      const lines = [...tally.entries()].sort().map(([what, n]) => `${String(n).padStart(5)}  ${what}`);
      process.stderr.write(`${lines.join('\n')}\n`);
    },
  };
}
