/**
 * Over the whole suite: every structured log line any test file makes the service
 * write is collected, and none may carry an API key, a signing or Stripe secret, or an e-mail address.
 */
const SECRET_SHAPES: [string, RegExp][] = [
  ['an API key', /oik_[A-Za-z0-9_-]{40}/],
  ['a signing secret', /whsec_[A-Za-z0-9+/=_-]{8,}/],
  ['a Stripe key', /\b[sr]k_(live|test)_[A-Za-z0-9]{8,}/],
  ['an e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
];

const logLines: string[] = [];
let tapped = false;

/**
 * Taps the process's output: the service's log lines are JSON objects with a `level`. Once per module
 * graph: the unit tier's files share one (vitest.config.ts) and each runs the set-up again.
 */
export function collectLogLines(): void {
  if (tapped) return;
  tapped = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      for (const line of String(chunk).split('\n')) if (line.startsWith('{"level"')) logLines.push(line);
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}

/** What a log line should not contain, named; empty when the lines are clean. */
export function secretsInLogs(): string[] {
  return logLines.flatMap((line) =>
    SECRET_SHAPES.filter(([, shape]) => shape.test(line)).map(([what]) => `${what} in ${line.slice(0, 300)}`),
  );
}
