import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll } from 'vitest';

/** The protocol revisions the MCP endpoint serves, as a client negotiates each. */
export const REVISIONS = [
  { name: '2025-06-18', negotiation: { mode: 'legacy' as const }, supported: ['2025-06-18'] },
  { name: '2025-11-25', negotiation: { mode: 'legacy' as const } },
  { name: '2026-07-28', negotiation: { mode: { pin: '2026-07-28' } } },
] as const;

export type Revision = (typeof REVISIONS)[number];

const open: Client[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

/** The SDK's own client over HTTP, sending the key as a bearer header, as an agent's client would. */
export async function mcpClient(
  baseUrl: string,
  key: string,
  revision: Revision = REVISIONS[2],
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client(
    { name: 'e2e-agent', version: '1.0.0' },
    {
      versionNegotiation: revision.negotiation,
      ...('supported' in revision ? { supportedProtocolVersions: [...revision.supported] } : {}),
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}
