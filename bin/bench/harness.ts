import { dynamoRequestCount } from '#shared/store/client';
import type { LocalPorts } from '#bin/local/runtime';

export interface BenchContext {
  baseUrl: string;
  proKey: string;
  developerKey: string;
  ports: LocalPorts;
  /** One HTTP call; throws on a status other than `expect` (default: any 2xx). */
  // biome-ignore lint/suspicious/noExplicitAny: a response body, read like a test reads one (a wrong guess fails the run loudly); typing each bench call by its route is left to do
  call(method: string, path: string, options?: { key?: string; body?: unknown; expect?: number }): Promise<any>;
  /** Runs `fn` `count` times (sequentially) and prints p50/p95 and DynamoDB requests per call. */
  measure(label: string, count: number, fn: (i: number) => Promise<unknown>): Promise<Measurement>;
  print(line: string): void;
  /** Sets the p50 every later row is compared with (a bare DynamoDB Local GetItem measured in the same run). */
  setBaseline(p50: number): void;
}

export interface Measurement {
  label: string;
  count: number;
  p50: number;
  p95: number;
  ddbPerCall: number;
}

/** A benchmark of one area; registered in bin/bench.ts. */
export interface BenchSuite {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export function createBenchContext(
  base: Omit<BenchContext, 'call' | 'measure' | 'print' | 'setBaseline'>,
): BenchContext {
  const print = (line: string) => console.log(line);
  let baseline: number | undefined;
  return {
    ...base,
    print,
    setBaseline(p50) {
      baseline = p50;
    },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? base.proKey}` };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${base.baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      const ok = options.expect ? response.status === options.expect : response.status >= 200 && response.status < 300;
      if (!ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      try {
        return text ? JSON.parse(text) : undefined;
      } catch {
        return text;
      }
    },
    async measure(label, count, fn) {
      const times: number[] = [];
      const before = dynamoRequestCount();
      for (let i = 0; i < count; i++) {
        const start = performance.now();
        await fn(i);
        times.push(performance.now() - start);
      }
      const ddbPerCall = (dynamoRequestCount() - before) / count;
      times.sort((a, b) => a - b);
      const m = { label, count, p50: percentile(times, 50), p95: percentile(times, 95), ddbPerCall };
      const ratio = baseline ? `  p50 x${(m.p50 / baseline).toFixed(1).padStart(5)} bare GetItem` : '';
      print(
        `${label.padEnd(48)} n=${String(count).padStart(4)}  p50=${m.p50.toFixed(1).padStart(7)} ms  p95=${m.p95.toFixed(1).padStart(7)} ms  ddb/req=${ddbPerCall.toFixed(2)}${ratio}`,
      );
      return m;
    },
  };
}

/** A value the bench cannot go on without: its absence stops the suite with a message, not an undefined read. */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`bench: ${what} is missing`);
  return value;
}
