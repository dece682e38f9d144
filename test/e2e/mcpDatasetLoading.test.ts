import { describe, expect, it } from 'vitest';
import { createLocalApi, listen } from '#bin/local/server';
import { DatasetLoadingError } from '#shared/domain/errors';
import { startTestApi } from '#test/support/api';
import { mcpClient } from '#test/support/mcpClient';

// The shared API only creates the caller and installs the local ports; the tools are called on a
// server of the first start's kind, whose curated dataset is loading until the test says otherwise.
const api = await startTestApi();
let loading = true;
const firstStart = createLocalApi({
  curatedDatasetUnavailable: () =>
    loading ? new DatasetLoadingError({ loaded_items: 5, total_items: 10 }, 3) : undefined,
});
firstStart.keepAliveTimeout = 60_000;
const port = await listen(firstStart, 0);

type ToolResult = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

describe('MCP tools while the first start loads the curated dataset', () => {
  it('answer the dataset_loading tool error for a tool whose route reads curated data, and run the others', {
    timeout: 60_000,
  }, async () => {
    try {
      const { user, key } = await api.newUser({ tier: 'pro', credits: 100 });
      const client = await mcpClient(`http://127.0.0.1:${port}/api/v1`, key);
      const resolve = () =>
        client.callTool({
          name: 'resolve_package',
          arguments: { package_id: 'vc-shortlist-v1', request_text: '10 seed-stage DeFi VCs' },
        }) as Promise<ToolResult>;

      const waiting = await resolve();
      expect(waiting.isError).toBe(true);
      expect(waiting.content[0].text).toMatch(/^Error dataset_loading: .*wait for the Retry-After seconds/);
      expect(JSON.parse(waiting.content[1].text)).toMatchObject({
        error: { code: 'dataset_loading', details: { loaded_items: 5, total_items: 10 } },
        retry_after_seconds: 3,
      });
      // The growth routes read the dataset too; the account's do not, and answer at once.
      const growth = (await client.callTool({
        name: 'resolve_growth_goal',
        arguments: { goal_text: 'Find 20 DeFi investors' },
      })) as ToolResult;
      expect(JSON.parse(growth.content[1].text).error.code).toBe('dataset_loading');
      const account = (await client.callTool({ name: 'get_account', arguments: {} })) as ToolResult;
      expect(account.isError).toBeFalsy();
      expect(account.structuredContent).toMatchObject({ id: user.id });
      const usage = (await client.callTool({ name: 'get_credit_usage', arguments: {} })) as ToolResult;
      expect(usage.isError).toBeFalsy();

      // Loaded: the same call is answered by the route.
      loading = false;
      const ready = await resolve();
      expect(ready.isError, ready.content.map((c) => c.text).join('\n')).toBeFalsy();
      expect(ready.structuredContent).toMatchObject({ intent_status: 'ready_for_quote' });
    } finally {
      firstStart.closeAllConnections();
      await new Promise((r) => firstStart.close(r));
    }
  });
});
