import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { REVISIONS } from '#test/support/mcpClient';
import { openApiDocument } from '#test/support/contract';

// What /api/v1/mcp answers on the wire when a message is not one it can serve. Every answer goes through
// api.call, which checks it against the published document: a status or body the document does not declare fails.
const api = await startTestApi();
const SERVED = REVISIONS.map((r) => r.name).sort();
const MODERN = '2026-07-28';

const envelope = (version: string) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

async function post(key: string, body: unknown, headers: Record<string, string> = {}) {
  return api.call('POST', '/mcp', {
    key,
    ...(typeof body === 'string' ? { rawBody: body } : { body }),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  });
}

describe('a body that is not one JSON-RPC message', () => {
  it('is a JSON-RPC error, as the protocol answers it: -32700 when it does not parse, -32600 for a batch or a non-object', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5 });
    const malformed = await post(key, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(malformed.body.error.message).toMatch(/Parse error/);

    const batch = await post(key, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    expect(batch.status).toBe(400);
    expect(batch.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(batch.body.error.message).toMatch(/one JSON-RPC message/);

    for (const other of ['[]', '"tools/list"', '42', `${'['.repeat(70)}${']'.repeat(70)}`]) {
      const answer = await post(key, other);
      expect(answer.status, other.slice(0, 20)).toBe(400);
      expect(answer.body, other.slice(0, 20)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    // The REST error code and request id stay readable in the error's data.
    expect(malformed.body.error.data).toMatchObject({ code: 'validation_error', request_id: expect.any(String) });
  });

  it('a tool’s hostile arguments stay the tool’s own validation_error result, not a transport error', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5 });
    const res = await post(
      key,
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_account","arguments":{"__proto__":{}}}}',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 4, result: { isError: true } });
  });
});

describe('the MCP SDK’s own refusals are declared in the document', () => {
  it('406 for an Accept without JSON, 415 for another Content-Type, 404 for a 2026-07-28 method not served', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5 });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const accept = await post(key, list, { accept: 'text/html' });
    expect(accept.status).toBe(406);
    expect(accept.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const type = await api.call('POST', '/mcp', {
      key,
      rawBody: JSON.stringify(list),
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
    });
    expect(type.status).toBe(415);
    const unknown = await post(
      key,
      { jsonrpc: '2.0', id: 2, method: 'prompts/list', params: { _meta: envelope(MODERN) } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'prompts/list' },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32601 } });
  });

  it('describes JSON-RPC bodies, not the REST error body, for the statuses the protocol answers', () => {
    const responses = openApiDocument.paths['/api/v1/mcp'].post.responses;
    for (const status of ['404', '406', '415'])
      expect(responses[status].content['application/json'].schema, status).toEqual({
        $ref: '#/components/schemas/JsonRpcErrorResponse',
      });
    expect(JSON.stringify(responses['400'].content['application/json'].schema)).toContain('JsonRpcErrorResponse');
    expect(responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });
});

describe('the protocol revisions served', () => {
  it('are all named by server/discover and by the -32022 error of a revision not served', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5 });
    const discover = await post(
      key,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope(MODERN) } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    );
    expect(discover.status).toBe(200);
    expect([...discover.body.result.supportedVersions].sort()).toEqual(SERVED);

    const future = await post(
      key,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope('2099-01-01') } },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    );
    expect(future.status).toBe(400);
    expect(future.body.error.code).toBe(-32022);
    expect([...future.body.error.data.supported].sort()).toEqual(SERVED);
  });

  it('a 2025-era request naming another revision is told the ones served', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5 });
    const res = await post(
      key,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { 'mcp-protocol-version': '2024-11-05' },
    );
    expect(res.status).toBe(400);
    for (const name of SERVED) expect(res.body.error.message).toContain(name);
    expect(res.body.error.message).not.toContain('2024-11-05,');
  });
});
