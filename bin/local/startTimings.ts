/**
 * Where a start's seconds go: each phase's time since the process began (performance.now()'s origin,
 * so loading and transforming the modules counts too), written to stderr when LOCAL_START_TIMINGS is
 * set. The first-start bench sets it and prints the phases beside its totals.
 */
const enabled = () => Boolean(process.env.LOCAL_START_TIMINGS);

export function startPhase(label: string): void {
  if (enabled()) process.stderr.write(`start phase: ${label} at ${(performance.now() / 1000).toFixed(2)} s\n`);
}
