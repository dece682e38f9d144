import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { contractViolation } from '#test/support/contract';

/**
 * One explicit case per hostile input: names inherited from
 * Object.prototype used as header, query, body and slot names; malformed percent-encoding in a path;
 * JSON nested too deep; request lines and headers over Node's limit. The fuzz suite
 * (test/fuzz/operations.test.ts) sends the same alphabet at random; these pin each answer exactly.
 */
const api = await startTestApi();
const { key } = await api.newUser({ tier: 'pro', credits: 1_000 });

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const UUID = '01900000-0000-7000-8000-000000000000';

/** The contract's error body with the given code, and the request id it repeats. */
function expectError(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
}

/** Schema parsing would drop a `__proto__` key silently (or make it a prototype), so it is refused wherever it appears. */
const RESERVED = (path: string) => ({ path, message: 'Reserved property name: __proto__' });

describe('names inherited from Object.prototype', () => {
  for (const name of PROTO_NAMES) {
    it(`a header named ${name} is just an unknown header`, async () => {
      const health = await api.call('GET', '/health', { headers: { [name]: 'x' } });
      expect(health.status).toBe(200);
      const me = await api.call('GET', '/users/me', { key, headers: { [name]: 'x' } });
      expect(me.status).toBe(200);
      const created = await api.call('POST', '/chats', { key, body: { title: 'headers' }, headers: { [name]: 'x' } });
      expect(created.status).toBe(201);
    });

    it(`a query parameter named ${name} is refused as unknown`, async () => {
      const res = await api.call('GET', `/chats?${encodeURIComponent(name)}=1`, { key });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([{ path: 'query', message: `Unknown property: ${name}` }]);
    });

    it(`a body key named ${name} is refused as unknown`, async () => {
      const res = await api.call('POST', '/chats', {
        key,
        rawBody: `{"title":"t","${name}":{"title":"x"}}`,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([
        name === '__proto__' ? RESERVED(name) : { path: 'body', message: `Unknown property: ${name}` },
      ]);
    });

    it(`a slot named ${name} is an unknown slot`, async () => {
      const res = await api.call('POST', '/intelligence/resolve', {
        key,
        rawBody: `{"package_id":"vc-shortlist-v1","slots":{"${name}":"defi"}}`,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([
        name === '__proto__'
          ? RESERVED(`slots.${name}`)
          : { path: `slots.${name}`, message: expect.stringMatching(/^Unknown slot for vc-shortlist-v1/) },
      ]);
    });

    it(`a CSV column named ${name} in growth input_text is an unknown column`, async () => {
      const res = await api.call('POST', '/growth/resolve', {
        key,
        body: {
          goal_text: 'find decision makers at these companies',
          input_text: `${name},domain,company\nx,acme.io,Acme\ny,globex.com,Globex`,
        },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.input_report.input_text_format).toBe('csv');
      expect(res.body.input_report.detected_columns).toEqual({ '1': 'domain', '2': 'company_name' });
      expect(res.body.normalized_input_assets.companies.map((c: { domain: string }) => c.domain).sort()).toEqual([
        'acme.io',
        'globex.com',
      ]);
    });
  }
});

describe('__proto__ as a key anywhere in a body', () => {
  it('in free-form chat metadata, where the schema would drop it silently', async () => {
    const chat = await api.call('POST', '/chats', { key, body: { title: 'proto' } });
    const rawBody = '{"messages":[{"role":"user","content":"hi","metadata":{"ok":1,"__proto__":{"polluted":true}}}]}';
    const res = await api.call('PUT', `/chats/${chat.body.id}`, {
      key,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([RESERVED('messages.0.metadata.__proto__')]);
  });

  it('in a growth goal_plan', async () => {
    const res = await api.call('POST', '/growth/quote', {
      key,
      rawBody: '{"goal_plan":{"__proto__":{"goal_type":"x"}}}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([RESERVED('goal_plan.__proto__')]);
  });
});

describe('values JSON can write but the store cannot keep as sent', () => {
  it('in free-form chat metadata, where 1e309 would come back as null, answer 400 instead', async () => {
    const chat = await api.call('POST', '/chats', { key, body: { title: 'numbers' } });
    for (const [raw, path] of [
      ['1e309', 'messages.0.metadata.n'],
      ['-1e309', 'messages.0.metadata.n'],
      ['[1, 2e400]', 'messages.0.metadata.n.1'],
    ] as const) {
      const rawBody = `{"messages":[{"role":"user","content":"hi","metadata":{"ok":1,"n":${raw}}}]}`;
      const res = await api.call('PUT', `/chats/${chat.body.id}`, {
        key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details, raw).toEqual([{ path, message: 'Number out of range' }]);
    }
    // Nothing was stored; a large finite number is kept.
    const kept = await api.call('PUT', `/chats/${chat.body.id}`, {
      key,
      rawBody: '{"messages":[{"role":"user","content":"hi","metadata":{"n":1e308}}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.messages[0].metadata).toEqual({ n: 1e308 });
  });

  it('a lone UTF-16 surrogate, which UTF-8 cannot carry (it would come back as U+FFFD), answers 400; a pair is kept', async () => {
    const chat = await api.call('POST', '/chats', { key, body: { title: 'text' } });
    const cases = [
      ['{"title":"\\ud800"}', 'title', 'Lone UTF-16 surrogate in text'],
      ['{"messages":[{"role":"user","content":"a\\udc00b"}]}', 'messages.0.content', 'Lone UTF-16 surrogate in text'],
      [
        '{"messages":[{"role":"user","content":"hi","metadata":{"\\ud83d":1}}]}',
        'messages.0.metadata.\ufffd',
        'Lone UTF-16 surrogate in a property name',
      ],
    ] as const;
    for (const [rawBody, path, message] of cases) {
      const res = await api.call('PUT', `/chats/${chat.body.id}`, {
        key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details, rawBody).toEqual([{ path, message }]);
    }
    const kept = await api.call('PUT', `/chats/${chat.body.id}`, {
      key,
      rawBody: '{"messages":[{"role":"user","content":"\\ud83d\\ude80"}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.messages[0].content).toBe('\u{1F680}');
  });
});

describe('malformed percent-encoding in a path', () => {
  for (const segment of ['%E0%A4%A', '%', '%zz', 'a%2', '%C0%AF', '%FF']) {
    it(`/bd/jobs/${segment} answers 400 validation_error`, async () => {
      const res = await api.call('GET', `/bd/jobs/${segment}`, { key });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([{ path: 'path.job_id', message: 'Malformed percent-encoding' }]);
    });
  }

  it('on the event stream and public routes too', async () => {
    expectError(
      await api.call('GET', '/bd/jobs/%zz/events', { key, headers: { accept: 'text/event-stream' } }),
      400,
      'validation_error',
    );
    expectError(await api.call('GET', '/checkout/%E0%A4%A'), 400, 'validation_error');
  });
});

describe('JSON nested deeper than 64 levels', () => {
  /** `levels` objects inside each other. */
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  /** A chat update whose body nests `levels` + 3 deep: the body, messages, the message, then the metadata. */
  const chatWith = (levels: number) => `{"messages":[{"role":"user","content":"hi","metadata":${nested(levels)}}]}`;
  const newChat = async () => (await api.call('POST', '/chats', { key, body: { title: 'deep' } })).body.id as string;

  it('a body 65 levels deep answers 400 and a body of 64 levels is accepted', async () => {
    const chatId = await newChat();
    const ok = await api.call('PUT', `/chats/${chatId}`, {
      key,
      rawBody: chatWith(61),
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status, ok.text).toBe(200);
    const deep = await api.call('PUT', `/chats/${chatId}`, {
      key,
      rawBody: chatWith(62),
      headers: { 'content-type': 'application/json' },
    });
    expectError(deep, 400, 'validation_error');
    expect(deep.body.error.details).toEqual([{ path: 'body', message: 'Nested deeper than 64 levels' }]);
  });

  it('metadata 50,000 levels deep (deep enough to overflow JSON.stringify) answers 400', async () => {
    const res = await api.call('PUT', `/chats/${await newChat()}`, {
      key,
      rawBody: chatWith(50_000),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([{ path: 'body', message: 'Nested deeper than 64 levels' }]);
  });

  it('a goal_plan 50,000 levels deep with an Idempotency-Key (fingerprinted before the run) answers 400', async () => {
    const rawBody = `{"quote_token":"q","goal_plan":${nested(50_000)}}`;
    const res = await api.call('POST', '/growth/run', {
      key,
      rawBody,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-goal-plan' },
    });
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([{ path: 'body', message: 'Nested deeper than 64 levels' }]);
  });

  for (const [label, raw] of [
    ['200,000 nested arrays', '['.repeat(200_000) + ']'.repeat(200_000)],
    ['deep and unterminated', '['.repeat(100_000)],
  ] as const) {
    it(`${label} answers 400 for its depth`, async () => {
      const res = await api.call('POST', '/chats', {
        key,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([{ path: 'body', message: 'Nested deeper than 64 levels' }]);
    });
  }

  it('brackets inside strings do not count as depth', async () => {
    const res = await api.call('POST', '/chats', { key, body: { title: '['.repeat(100) + '{"'.repeat(50) } });
    expect(res.status, res.text).toBe(201);
  });
});

/** Sends raw bytes and reads the whole answer (the server closes the connection after a client error). */
function rawRequest(text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port, hostname } = new URL(api.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = answer.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

describe("requests Node's parser refuses", () => {
  const expectRawError = (res: Awaited<ReturnType<typeof rawRequest>>, status: number, code: string, path: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const body = JSON.parse(res.body);
    expect(body.error.code).toBe(code);
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(contractViolation('GET', path, res.status, res.headers['content-type'], res.body)).toBeUndefined();
  };

  it('headers over the limit answer 431 with the error body', async () => {
    const res = await rawRequest(
      `GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectRawError(res, 431, 'request_header_too_large', '/api/v1/health');
  });

  it('a request line over the limit answers 431 with the error body', async () => {
    const res = await rawRequest(`GET /api/v1/bd/jobs?${'a'.repeat(20_000)}=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectRawError(res, 431, 'request_header_too_large', '/api/v1/bd/jobs');
  });

  it('the same through fetch', async () => {
    const res = await api.call('GET', '/users/me', { key, headers: { 'x-big': 'a'.repeat(20_000) } });
    expectError(res, 431, 'request_header_too_large');
  });

  it('a malformed header line answers 400 validation_error with the error body', async () => {
    const res = await rawRequest(`GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n`);
    expectRawError(res, 400, 'validation_error', '/api/v1/health');
  });

  it('the server keeps answering afterwards', async () => {
    expect((await api.call('GET', `/bd/jobs/${UUID}`, { key })).status).toBe(404);
  });
});
