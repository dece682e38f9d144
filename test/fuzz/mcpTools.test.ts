import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { getBalance } from '#shared/domain/credits/credits';
import { startTestApi } from '#test/support/api';
import { mcpClient, REVISIONS } from '#test/support/mcpClient';

/**
 * Bounded fuzzing of every tool's arguments through the SDK's client: names from each tool's own
 * inputSchema (and others), values of every JSON type. Whatever comes in, the answer is a tool
 * result (never a JSON-RPC error, never an HTTP error, which the client would throw), a failure
 * is an isError naming a contract code other than internal_error, and without a real quote token
 * no credit moves. FUZZ_SEED and FUZZ_RUNS reproduce or widen a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const api = await startTestApi();
const account = await api.newUser({ tier: 'pro', credits: 100_000 });

// Object.prototype's names too: within a tool's arguments even `__proto__` is the tool's error to answer.
const safeKey = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'prototype'));

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 30 }),
    fc.constantFrom(
      '',
      'null',
      '-1',
      'qt_x',
      '01a20ca7-4def-73f6-8b17-819e2cfffc9f',
      'vc-shortlist-v1',
      'full_pipeline',
      'a'.repeat(3000),
    ),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.constantFrom(0, -1, 25, 26, 1e308, 2 ** 53),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(safeKey, tie('v'), { maxKeys: 3 }),
  ),
})).v;

describe('tools/call with generated arguments', () => {
  it('always answers a tool result, never a protocol error or a 500, and moves no credits', async () => {
    const client: Client = await mcpClient(api.baseUrl, account.key, REVISIONS[2]);
    const { tools } = await client.listTools();
    const argsFor = (tool: (typeof tools)[number]) =>
      fc.dictionary(
        fc.oneof(fc.constantFrom(...Object.keys(tool.inputSchema.properties ?? {}), 'quote_token'), safeKey),
        value,
        { maxKeys: 5 },
      );
    const call = fc
      .constantFrom(...tools)
      .chain((tool) => fc.record({ name: fc.constant(tool.name), arguments: argsFor(tool) }));
    const codes = new Map<string, number>();

    await fc.assert(
      fc.asyncProperty(call, async (request) => {
        const result = (await client.callTool(request)) as { isError?: boolean; content: { text: string }[] };
        if (result.isError) {
          const code = JSON.parse(result.content[1].text).error.code as string;
          codes.set(code, (codes.get(code) ?? 0) + 1);
          expect(code).not.toBe('internal_error');
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 20_000 },
    );
    expect((await getBalance(account.user.id)).available).toBe(100_000);
    // The run reached the routes' own validation, not only the tool layer.
    expect(codes.get('validation_error') ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
