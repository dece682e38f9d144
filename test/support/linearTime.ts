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

function medianMs(fn: (input: string) => unknown, input: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    try {
      fn(input);
    } catch {
      // A refusal (400) is an answer too: what is measured is how long it took to reach it.
    }
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

/** Ratio of each adversarial case's median time to the benign input's. */
export function timeRatios(fn: (input: string) => unknown, benign: string, cases: TimedCase[], runs = 5): Record<string, number> {
  for (const c of cases) if (c.input.length !== benign.length) throw new Error(`${c.name} is ${c.input.length} characters, the benign input ${benign.length}`);
  fn(benign); // warm up the JIT before timing anything
  const base = medianMs(fn, benign, runs);
  return Object.fromEntries(cases.map((c) => [c.name, medianMs(fn, c.input, runs) / base]));
}

/** Asserts every adversarial case costs at most `maxRatio` times the benign input of the same length. */
export function expectLinearTime(fn: (input: string) => unknown, benign: string, cases: TimedCase[], maxRatio = 5): void {
  const ratios = timeRatios(fn, benign, cases);
  const slow = Object.entries(ratios).filter(([, r]) => r > maxRatio);
  expect(slow, `cases slower than ${maxRatio}x the benign input: ${JSON.stringify(ratios)}`).toEqual([]);
}

/** `unit` repeated and cut to exactly `length` characters, with `prefix` and `suffix` kept whole. */
export function crafted(length: number, unit: string, prefix = '', suffix = ''): string {
  const body = length - prefix.length - suffix.length;
  return prefix + unit.repeat(Math.ceil(body / unit.length)).slice(0, body) + suffix;
}
