import { printMcpBundleFigures } from './bundles';
import type { BenchSuite } from './harness';

const N = 300;

/**
 * What a tool call costs beside the HTTP route it runs: the same read over POST /mcp (one JSON-RPC
 * tools/call, stateless, as an agent's client sends it after initialize) and over its route, p50 as a
 * ratio (goal: at most 1.2x). Then the MCP function's bundle beside the hello-world one.
 */
export const mcpBench: BenchSuite = {
  name: 'MCP (tool call overhead, bundle)',
  async run({ baseUrl, proKey, call, measure, print }) {
    let id = 0;
    const tool = async (name: string, args: Record<string, unknown>) => {
      const res = await fetch(`${baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${proKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }),
      });
      const answer = (await res.json()) as { result?: { isError?: boolean } };
      if (res.status !== 200 || !answer.result || answer.result.isError)
        throw new Error(`tools/call ${name}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
    };
    const pairs: [string, () => Promise<unknown>, string, () => Promise<unknown>][] = [
      ['GET /users/me', () => call('GET', '/users/me'), 'tools/call get_account', () => tool('get_account', {})],
      [
        'GET /bd/jobs?limit=25',
        () => call('GET', '/bd/jobs?limit=25'),
        'tools/call list_jobs',
        () => tool('list_jobs', { limit: 25 }),
      ],
    ];
    // Warm both paths first (the MCP function loads the route's handler on its first tool call).
    for (const [, http, , mcp] of pairs) await Promise.all([http(), mcp()]);
    for (const [httpLabel, http, mcpLabel, mcp] of pairs) {
      // DynamoDB requests per call, as every suite reports them.
      await measure(httpLabel, 50, http);
      await measure(mcpLabel, 50, mcp);
      // The ratio from calls taken in turn, so that load on the shared machine weighs on both alike.
      const direct: number[] = [];
      const overMcp: number[] = [];
      for (let i = 0; i < N; i++) {
        for (const [fn, samples] of i % 2
          ? ([
              [mcp, overMcp],
              [http, direct],
            ] as const)
          : ([
              [http, direct],
              [mcp, overMcp],
            ] as const)) {
          const t = performance.now();
          await fn();
          samples.push(performance.now() - t);
        }
      }
      const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      print(
        `${mcpLabel} / ${httpLabel}, ${N} calls each taken in turn: p50 ${p50(overMcp).toFixed(1)} / ${p50(direct).toFixed(1)} ms = ${(p50(overMcp) / p50(direct)).toFixed(2)}x (goal <= 1.2x)`,
      );
    }
    await printMcpBundleFigures(print);
  },
};
