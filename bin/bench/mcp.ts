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
        headers: { authorization: `Bearer ${proKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }),
      });
      const answer = (await res.json()) as { result?: { isError?: boolean } };
      if (res.status !== 200 || !answer.result || answer.result.isError) throw new Error(`tools/call ${name}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
    };
    const pairs: [string, () => Promise<unknown>, string, () => Promise<unknown>][] = [
      ['GET /users/me', () => call('GET', '/users/me'), 'tools/call get_account', () => tool('get_account', {})],
      ['GET /bd/jobs?limit=25', () => call('GET', '/bd/jobs?limit=25'), 'tools/call list_jobs', () => tool('list_jobs', { limit: 25 })],
    ];
    // Warm both paths first (the MCP function loads the route's handler on its first tool call).
    for (const [, http, , mcp] of pairs) await Promise.all([http(), mcp()]);
    for (const [httpLabel, http, mcpLabel, mcp] of pairs) {
      const direct = await measure(httpLabel, N, http);
      const overMcp = await measure(mcpLabel, N, mcp);
      print(`${mcpLabel} / ${httpLabel}: p50 ratio ${(overMcp.p50 / direct.p50).toFixed(2)}x (goal <= 1.2x), +${(overMcp.p50 - direct.p50).toFixed(2)} ms`);
    }
    await printMcpBundleFigures(print);
  },
};
