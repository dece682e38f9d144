import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';

/** The local server's HTTP/1.1 manners on a raw keep-alive connection. */
const api = await startTestApi();
const { key } = await api.newUser({ tier: 'pro', credits: 1_000 });
const { port, hostname } = new URL(api.origin);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what a connection received into its responses (each with a Content-Length). */
function parseAnswers(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = bytes;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    rest = rest.subarray(end + 4);
    let body: Buffer = Buffer.alloc(0);
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        body = Buffer.concat([body, rest.subarray(lineEnd + 2, lineEnd + 2 + size)]);
        rest = rest.subarray(lineEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
  }
  return answers;
}

/** Opens a connection, lets `send` write to it, and collects everything received until it closes. */
function exchange(send: (socket: Socket) => void): Promise<{ answers: RawAnswer[]; error?: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const socket = connect(Number(port), hostname, () => send(socket));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ answers: parseAnswers(Buffer.concat(chunks)), error }));
  });
}

const MIB = 1024 * 1024;
const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} /api/v1${path} HTTP/1.1\r\nHost: ${hostname}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;

describe('a body over the local server limit', () => {
  it('answers 413 and the next request on the same keep-alive connection is answered', async () => {
    const body = Buffer.alloc(5 * MIB, 'a');
    const { answers, error } = await exchange((socket) => {
      socket.write(
        head('POST', '/chats', {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': body.length,
          connection: 'keep-alive',
        }),
      );
      socket.write(body);
      socket.write(head('GET', '/health', { connection: 'close' }));
    });
    expect(error).toBeUndefined();
    expect(answers.map((a) => a.status)).toEqual([413, 200]);
    expect(JSON.parse(answers[0].body).error.code).toBe('payload_too_large');
    expect(answers[0].headers.connection).not.toBe('close');
    expect(JSON.parse(answers[1].body).status).toBeDefined();
  });
});

describe('HTTP details', () => {
  it('an undeclared method on a known path is 405 with Allow; an unknown path stays 404', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/health', 'GET'],
      ['PUT', '/webhooks/endpoints', 'GET, POST'],
      ['POST', '/users/me', 'GET, PATCH'],
      // The quote is its own resource, not a job id of GET /bd/jobs/{job_id}.
      ['OPTIONS', '/bd/jobs/quote', 'POST'],
      ['GET', '/bd/jobs/quote', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await api.call(method, path, { key });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body.error.code).toBe('method_not_allowed');
      expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    }
    expect((await api.call('GET', '/no-such-path', { key })).status).toBe(404);
  });

  it('PATCH /users/me refuses an e-mail whose part before @ is over 64 characters', async () => {
    const own = await api.newUser();
    const refused = await api.call('PATCH', '/users/me', {
      key: own.key,
      body: { email: `${'a'.repeat(65)}@example.com` },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation_error');
    const longest = `${'b'.repeat(64)}-${Date.now()}`.slice(0, 64);
    const accepted = await api.call('PATCH', '/users/me', { key: own.key, body: { email: `${longest}@example.com` } });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
