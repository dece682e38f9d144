/**
 * Checks that a function's cost grows linearly with its input, without an absolute time (the test
 * machines are shared and slow): each adversarial input is timed against a benign input of the same
 * length, as the median of several runs, and the ratio must stay bounded. A quadratic regular
 * expression on a 50,000-character input is hundreds of times slower than the benign case.
 */
import { expect } from 'vitest';

export interface TimedCase {
  name: string;
  input: string;
}

/** One sample: `reps` calls in a row (a refusal thrown by `fn` is an answer too: its cost is what is measured). */
function sampleMs(fn: (input: string) => unknown, input: string, reps: number): number {
  const start = performance.now();
  for (let i = 0; i < reps; i++) {
    try {
      fn(input);
    } catch {
      // measured all the same
    }
  }
  return performance.now() - start;
}

function medianMs(fn: (input: string) => unknown, input: string, reps: number, runs: number): number {
  const times = Array.from({ length: runs }, () => sampleMs(fn, input, reps)).sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

/**
 * Calls per sample, so that one sample of the benign input lasts long enough for a shared machine's
 * timer and scheduler noise not to decide the ratio (a fast function is called many times per sample).
 */
function repetitions(fn: (input: string) => unknown, benign: string): number {
  let reps = 1;
  while (reps < 1 << 16 && sampleMs(fn, benign, reps) < 25) reps *= 2;
  return reps;
}

/** Ratio of each adversarial case's median time to the benign input's. */
export function timeRatios(
  fn: (input: string) => unknown,
  benign: string,
  cases: TimedCase[],
  runs = 5,
): Record<string, number> {
  for (const c of cases)
    if (c.input.length !== benign.length)
      throw new Error(`${c.name} is ${c.input.length} characters, the benign input ${benign.length}`);
  const reps = repetitions(fn, benign); // also warms up the JIT before anything is timed
  const base = medianMs(fn, benign, reps, runs);
  return Object.fromEntries(cases.map((c) => [c.name, medianMs(fn, c.input, reps, runs) / base]));
}

/**
 * Asserts every adversarial case costs at most `maxRatio` times the benign input of the same length.
 * 10: a linear path with a larger constant (growth's "one wide line") measured up to 5.1x during a
 * loaded full run, while the super-linear parsers these tests caught cost 100x and more at 50,000 characters.
 */
export function expectLinearTime(
  fn: (input: string) => unknown,
  benign: string,
  cases: TimedCase[],
  maxRatio = 10,
): void {
  // A busy machine (a parallel test file, CI neighbours) can stretch one sample; a super-linear case is slow
  // every time, so only a case slow in three measurements in a row fails.
  let suspects = cases;
  let ratios: Record<string, number> = {};
  for (let attempt = 0; attempt < 3 && suspects.length; attempt++) {
    ratios = timeRatios(fn, benign, suspects);
    suspects = suspects.filter((c) => ratios[c.name] > maxRatio);
  }
  const slow = suspects.map((c) => [c.name, ratios[c.name]]);
  expect(slow, `cases slower than ${maxRatio}x the benign input: ${JSON.stringify(ratios)}`).toEqual([]);
}

/** `unit` repeated and cut to exactly `length` characters, with `prefix` and `suffix` kept whole. */
export function crafted(length: number, unit: string, prefix = '', suffix = ''): string {
  const body = length - prefix.length - suffix.length;
  return prefix + unit.repeat(Math.ceil(body / unit.length)).slice(0, body) + suffix;
}
