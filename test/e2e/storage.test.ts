import { describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { saveResult } from '#shared/domain/storage/results';
import { startTestApi } from '#test/support/api';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { getUser } from '#shared/store/usersRepo';
import { userProfileKey } from '#shared/store/keys';

const api = await startTestApi();

/** The chat-list Queries `call` sends and the items they read (ScannedCount), seen on the client every request goes through. */
async function chatReads(call: () => Promise<unknown>): Promise<{ queries: number; scanned: number }> {
  const client = ddb();
  const send = client.send.bind(client);
  const reads = { queries: 0, scanned: 0 };
  (client as unknown as { send: (c: { constructor: { name: string } }) => Promise<unknown> }).send = async (
    command,
  ) => {
    const out = (await send(command as never)) as { ScannedCount?: number };
    if (command.constructor.name === 'QueryCommand')
      [reads.queries, reads.scanned] = [reads.queries + 1, reads.scanned + (out.ScannedCount ?? 0)];
    return out;
  };
  try {
    await call();
  } finally {
    (client as unknown as { send: unknown }).send = send;
  }
  return reads;
}
const chatItemsRead = async (call: () => Promise<unknown>) => (await chatReads(call)).scanned;

describe('chat totals', () => {
  it('come from the count kept on the account: creates and deletes (concurrent ones too) move it, a page reads only itself', async () => {
    const { key, user } = await api.newUser();
    const created = [];
    for (let round = 0; round < 3; round += 1)
      created.push(
        ...(await Promise.all(Array.from({ length: 8 }, () => api.call('POST', '/chats', { key, body: {} })))),
      );
    expect(created.every((r) => r.status === 201)).toBe(true);
    await Promise.all(created.slice(0, 3).map((r) => api.call('DELETE', `/chats/${r.body.id}`, { key })));
    expect((await api.call('DELETE', `/chats/${created[0].body.id}`, { key })).status).toBe(404);
    expect((await getUser(user.id))?.liveChats).toBe(21);
    for (const sort_by of ['updated_at', 'created_at']) {
      let page: { status: number; body: { total: number; items: unknown[] } } | undefined;
      const read = await chatItemsRead(
        async () => (page = await api.call('GET', `/chats?limit=5&offset=2&sort_by=${sort_by}`, { key })),
      );
      expect(page!.status).toBe(200);
      expect(page!.body).toMatchObject({ total: 21, limit: 5, offset: 2 });
      expect(page!.body.items).toHaveLength(5);
      // The page's 7 (offset and limit); by creation order one read of up to 100 (deleted chats are among them).
      expect(read, sort_by).toBeLessThanOrEqual(sort_by === 'updated_at' ? 7 : 100);
    }
    expect((await api.call('GET', '/chats?limit=5&offset=20', { key })).body).toMatchObject({
      total: 21,
      items: [expect.anything()],
    });
  });

  it('are counted by reading the chats for an account made before the count began, which never starts one', async () => {
    const { key, user } = await api.newUser();
    await ddb().send(
      new UpdateCommand({ TableName: table(), Key: userProfileKey(user.id), UpdateExpression: 'REMOVE liveChats' }),
    );
    const [a] = await Promise.all([
      api.call('POST', '/chats', { key, body: {} }),
      api.call('POST', '/chats', { key, body: {} }),
      api.call('POST', '/chats', { key, body: {} }),
    ]);
    expect((await api.call('DELETE', `/chats/${a.body.id}`, { key })).status).toBe(204);
    const read = await chatItemsRead(async () =>
      expect((await api.call('GET', '/chats?limit=1', { key })).body).toMatchObject({
        total: 2,
        items: [expect.anything()],
      }),
    );
    expect(read).toBe(2);
    expect((await getUser(user.id))?.liveChats).toBeUndefined();
  });

  it('past the end: an empty page with the true total, whatever the offset, in few reads', async () => {
    const { key } = await api.newUser();
    await api.call('POST', '/chats', { key, body: {} });
    await api.call('POST', '/chats', { key, body: {} });
    for (const sort_by of ['updated_at', 'created_at']) {
      for (const offset of [5, 3_000_000_000]) {
        const res = await api.call('GET', `/chats?offset=${offset}&sort_by=${sort_by}`, { key });
        expect(res.status, `${sort_by} ${offset}`).toBe(200);
        expect(res.body, `${sort_by} ${offset}`).toMatchObject({ items: [], total: 2, offset });
      }
    }
  });

  it('by creation order, deleted chats are passed over in few Queries, not one each', async () => {
    const { key } = await api.newUser();
    const chats = [];
    for (let i = 0; i < 40; i += 1) chats.push((await api.call('POST', '/chats', { key, body: {} })).body);
    await Promise.all(chats.slice(1).map((c) => api.call('DELETE', `/chats/${c.id}`, { key })));
    let page: { body: { total: number; items: { id: string }[] } } | undefined;
    const reads = await chatReads(
      async () => (page = await api.call('GET', '/chats?sort_by=created_at&limit=1', { key })),
    );
    expect(page!.body).toMatchObject({ total: 1, items: [{ id: chats[0].id }] });
    expect(reads.queries).toBe(1);
  });

  it('a create or delete that meets another transaction on the account (a conflict) goes again and counts once', async () => {
    const { key, user } = await api.newUser();
    const client = ddb();
    const send = client.send.bind(client);
    let refused = 0;
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand' && refused < 2) {
        refused += 1;
        return Promise.reject(
          Object.assign(new Error('Transaction cancelled'), {
            name: 'TransactionCanceledException',
            CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
          }),
        );
      }
      return send(command as never);
    }) as never);
    try {
      const created = await api.call('POST', '/chats', { key, body: {} });
      expect(created.status).toBe(201);
      refused = 1;
      expect((await api.call('DELETE', `/chats/${created.body.id}`, { key })).status).toBe(204);
    } finally {
      spy.mockRestore();
    }
    expect(refused).toBe(2);
    expect((await getUser(user.id))?.liveChats).toBe(0);
  });
});

describe('chats', () => {
  it('creates a chat with the default title and empty messages (201)', async () => {
    const { key, user } = await api.newUser();
    const res = await api.call('POST', '/chats', { key, body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_id: user.id, title: 'New Conversation', messages: [] });
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('renames, replaces messages, and reads them back', async () => {
    const { key } = await api.newUser();
    const { body: chat } = await api.call('POST', '/chats', { key, body: { title: 'Fundraise' } });
    const messages = [
      { role: 'user', content: 'Find seed VCs in DeFi' },
      { role: 'assistant', content: 'Here are ten.', metadata: { result_id: 'x' } },
    ];
    const put = await api.call('PUT', `/chats/${chat.id}`, { key, body: { title: 'Seed round', messages } });
    expect(put.status).toBe(200);
    expect(put.body.title).toBe('Seed round');
    const got = await api.call('GET', `/chats/${chat.id}`, { key });
    expect(got.body.messages).toEqual(messages);
    expect(Date.parse(got.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(chat.updated_at));
    const titleOnly = await api.call('PUT', `/chats/${chat.id}`, { key, body: { title: 'Renamed' } });
    expect(titleOnly.body.messages).toEqual(messages);
  });

  it('validates updates: empty body, long title, bad role', async () => {
    const { key } = await api.newUser();
    const { body: chat } = await api.call('POST', '/chats', { key, body: {} });
    for (const body of [{}, { title: 'x'.repeat(256) }, { messages: [{ role: 'robot', content: 'hi' }] }]) {
      expect((await api.call('PUT', `/chats/${chat.id}`, { key, body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('soft-deletes: 204, then 404 everywhere and gone from lists and totals', async () => {
    const { key } = await api.newUser();
    const a = (await api.call('POST', '/chats', { key, body: { title: 'a' } })).body;
    await api.call('POST', '/chats', { key, body: { title: 'b' } });
    const del = await api.call('DELETE', `/chats/${a.id}`, { key });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await api.call('GET', `/chats/${a.id}`, { key })).status).toBe(404);
    expect((await api.call('PUT', `/chats/${a.id}`, { key, body: { title: 'z' } })).status).toBe(404);
    expect((await api.call('DELETE', `/chats/${a.id}`, { key })).status).toBe(404);
    for (const sort of ['updated_at', 'created_at']) {
      const list = await api.call('GET', `/chats?sort_by=${sort}`, { key });
      expect(list.body.total).toBe(1);
      expect(list.body.items.map((c: { title: string }) => c.title)).toEqual(['b']);
    }
  });

  it('pages and sorts by updated_at (default desc) and created_at', async () => {
    const { key } = await api.newUser();
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three', 'four'])
      ids.push((await api.call('POST', '/chats', { key, body: { title } })).body.id);
    await api.call('PUT', `/chats/${ids[0]}`, { key, body: { title: 'one (edited)' } });
    const byUpdated = await api.call('GET', '/chats?limit=2', { key });
    expect(byUpdated.body).toMatchObject({ total: 4, limit: 2, offset: 0 });
    expect(byUpdated.body.items.map((c: { title: string }) => c.title)).toEqual(['one (edited)', 'four']);
    expect(byUpdated.body.items[0]).toEqual({
      id: ids[0],
      title: 'one (edited)',
      message_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const byCreatedAsc = await api.call('GET', '/chats?sort_by=created_at&sort_order=asc&limit=2&offset=1', { key });
    expect(byCreatedAsc.body.items.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[2]]);
  });

  it('rejects out-of-range and unknown list parameters with 400 instead of clamping', async () => {
    const { key } = await api.newUser();
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=1.5', 'sort_by=title', 'sort_order=up', 'limt=5']) {
      const res = await api.call('GET', `/chats?${q}`, { key });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });

  it('treats an empty query value as not given: the default applies, never 0', async () => {
    const { key } = await api.newUser();
    await api.call('POST', '/chats', { key, body: {} });
    const res = await api.call('GET', '/chats?limit=&offset=', { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ limit: 50, offset: 0, total: 1 });
  });

  it("never shows another user's chat: 404 on read, update and delete", async () => {
    const owner = await api.newUser();
    const other = await api.newUser();
    const chat = (await api.call('POST', '/chats', { key: owner.key, body: {} })).body;
    expect((await api.call('GET', `/chats/${chat.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('PUT', `/chats/${chat.id}`, { key: other.key, body: { title: 'mine' } })).status).toBe(404);
    expect((await api.call('DELETE', `/chats/${chat.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('GET', '/chats', { key: other.key })).body.total).toBe(0);
    expect((await api.call('GET', `/chats/${chat.id}`, { key: owner.key })).status).toBe(200);
  });

  it('answers a malformed id with 400', async () => {
    const { key } = await api.newUser();
    expect((await api.call('GET', '/chats/not-a-uuid', { key })).status).toBe(400);
  });

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const { key } = await api.newUser();
    const headers = { 'idempotency-key': 'create-chat-1' };
    const first = await api.call('POST', '/chats', { key, body: { title: 'Once' }, headers });
    const again = await api.call('POST', '/chats', { key, body: { title: 'Once' }, headers });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.call('GET', '/chats', { key })).body.total).toBe(1);
    const conflict = await api.call('POST', '/chats', { key, body: { title: 'Different' }, headers });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
  });
});

describe('stored results', () => {
  it('lists with filters, totals, paging, and sorts by created_at or file_size; items omit result_data', async () => {
    const { key, user } = await api.newUser();
    const chat = (await api.call('POST', '/chats', { key, body: { title: 'Research' } })).body;
    const small = await saveResult({
      userId: user.id,
      toolName: 'vc-shortlist-v1',
      resultData: { records: [1] },
      chatId: chat.id,
    });
    const big = await saveResult({
      userId: user.id,
      toolName: 'vc-shortlist-v1',
      resultData: { records: Array.from({ length: 500 }, (_, i) => i) },
    });
    const job = await saveResult({
      userId: user.id,
      toolName: 'bd_job',
      resultData: { rows: [] },
      metadata: { job_id: 'j' },
    });

    const all = await api.call('GET', '/results', { key });
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual([job.id, big.id, small.id]);
    expect(all.body.items[0]).not.toHaveProperty('result_data');
    expect(all.body.items[2]).toMatchObject({
      chat_id: chat.id,
      chat_title: 'Research',
      storage_format: 'json',
      user_id: user.id,
    });

    const byTool = await api.call('GET', '/results?tool_name=vc-shortlist-v1&sort_by=file_size&sort_order=asc', {
      key,
    });
    expect(byTool.body.total).toBe(2);
    expect(byTool.body.items.map((r: { id: string }) => r.id)).toEqual([small.id, big.id]);
    expect(byTool.body.items[0].file_size).toBe(JSON.stringify({ records: [1] }).length);

    const byChat = await api.call('GET', `/results?chat_id=${chat.id}`, { key });
    expect(byChat.body.items.map((r: { id: string }) => r.id)).toEqual([small.id]);
    const paged = await api.call('GET', '/results?limit=1&offset=1', { key });
    expect(paged.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(paged.body.items[0].id).toBe(big.id);
  });

  it('stores a 5 MB result and reads it back intact', async () => {
    const { key, user } = await api.newUser();
    // Incompressible-ish data: hex of varied numbers, so chunking (not compression) carries the size.
    const records = Array.from({ length: 52_000 }, (_, i) => ({
      i,
      v: ((i * 2654435761) % 4294967296).toString(16).padStart(8, '0').repeat(10),
    }));
    const resultData = { records, summary: 'big' };
    const saved = await saveResult({ userId: user.id, toolName: 'bd_job', resultData });
    expect(saved.fileSize).toBeGreaterThan(5_000_000);
    const res = await api.call('GET', `/results/${saved.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.result_data).toEqual(resultData);
    expect(res.body.file_size).toBe(saved.fileSize);
  });

  it("answers 404 for another user's result", async () => {
    const owner = await api.newUser();
    const other = await api.newUser();
    const saved = await saveResult({ userId: owner.user.id, toolName: 'bd_job', resultData: { secret: true } });
    expect((await api.call('GET', `/results/${saved.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('GET', '/results', { key: other.key })).body.total).toBe(0);
  });
});

describe('Idempotency-Key fingerprint', () => {
  it('treats the same JSON with other spacing and key order as the same request', async () => {
    const { key } = await api.newUser();
    const headers = { 'idempotency-key': 'spacing-1', 'content-type': 'application/json' };
    const first = await api.call('POST', '/chats', { key, rawBody: '{"title":"Same"}', headers });
    const again = await api.call('POST', '/chats', { key, rawBody: '{ "title" : "Same" }', headers });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });
});

describe('chat reads during concurrent message updates', () => {
  it('never answers 5xx and every GET returns one whole version', async () => {
    const { key } = await api.newUser();
    const { body: chat } = await api.call('POST', '/chats', { key, body: {} });
    // Random text so gzip cannot shrink it: each version spans real chunk data.
    const version = (n: number) => [
      { role: 'user', content: `version ${n}` },
      { role: 'assistant', content: randomBytes(30_000).toString('base64') },
    ];
    const written = new Map<string, number>();
    let writing = true;
    const writer = (async () => {
      for (let n = 1; n <= 25; n += 1) {
        const messages = version(n);
        written.set(messages[1].content, n);
        const put = await api.call('PUT', `/chats/${chat.id}`, { key, body: { messages } });
        expect(put.status).toBe(200);
      }
      writing = false;
    })();
    const reads: { status: number; body: { messages: { content: string }[] } }[] = [];
    const reader = async () => {
      while (writing) reads.push(await api.call('GET', `/chats/${chat.id}`, { key }));
    };
    await Promise.all([writer, reader(), reader(), reader(), reader()]);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.status).toBe(200);
      const messages = read.body.messages;
      if (messages.length === 0) continue; // the chat as created, before the first PUT landed
      const n = written.get(messages[1].content);
      expect(n).toBeDefined();
      expect(messages[0].content).toBe(`version ${n}`);
    }
  });
});
