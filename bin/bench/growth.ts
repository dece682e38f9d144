import type { BenchSuite } from './harness';

const N = 200;
const csvOf = (rows: number) =>
  [
    'Company,Website',
    ...Array.from({ length: rows }, (_, i) => `Bench Co ${i},https://bench-co-${i}.example.com`),
  ].join('\n');

/** Growth planning: resolve (small and large pastes), quote, a run end to end, and reading a finished run. */
export const growthBench: BenchSuite = {
  name: 'Growth (resolve, quote, run)',
  async run({ call, measure, ports, print }) {
    const goal_text = 'Find the work emails of the founders at these companies';
    const small = csvOf(10);
    await measure('POST /growth/resolve (10-row CSV)', N, () =>
      call('POST', '/growth/resolve', { body: { goal_text, input_text: small } }),
    );
    const large = csvOf(1000);
    print(`  (1000-row CSV is ${large.length} characters)`);
    await measure('POST /growth/resolve (1000-row CSV)', 10, () =>
      call('POST', '/growth/resolve', { body: { goal_text, input_text: large } }),
    );

    const plan = (await call('POST', '/growth/resolve', { body: { goal_text, input_text: small } })).goal_plan;
    const quotes: { quote_token: string; goal_plan: unknown }[] = [];
    await measure('POST /growth/quote', N, async () =>
      quotes.push(await call('POST', '/growth/quote', { body: { goal_plan: plan } })),
    );

    const runs: string[] = [];
    await measure('POST /growth/run', 20, async (i) =>
      runs.push(
        (
          await call('POST', '/growth/run', {
            body: { quote_token: quotes[i].quote_token, goal_plan: quotes[i].goal_plan },
            expect: 202,
          })
        ).run_id,
      ),
    );
    const drainStart = performance.now();
    await ports.queue.drained();
    print(
      `  20 runs of 10 companies through the pipeline: drained in ${(performance.now() - drainStart).toFixed(0)} ms`,
    );

    await measure('POST /growth/run → completed (10 companies)', 5, async (i) => {
      const q = quotes[20 + i];
      const { run_id } = await call('POST', '/growth/run', {
        body: { quote_token: q.quote_token, goal_plan: q.goal_plan },
        expect: 202,
      });
      await ports.queue.drained();
      const run = await call('GET', `/growth/runs/${run_id}`);
      if (run.status !== 'completed') throw new Error(`run ${run_id} is ${run.status}`);
    });
    await measure('GET /growth/runs/{id} (first read: finalises)', runs.length, (i) =>
      call('GET', `/growth/runs/${runs[i]}`),
    );
    await measure('GET /growth/runs/{id} (completed)', N, (i) => call('GET', `/growth/runs/${runs[i % runs.length]}`));
    await measure('GET /growth/runs/{id}/export?format=csv', 100, (i) =>
      call('GET', `/growth/runs/${runs[i % runs.length]}/export?format=csv`),
    );
  },
};
