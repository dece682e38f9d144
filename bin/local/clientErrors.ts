import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { own } from '#shared/dictionary';
import { MAX_BODY_BYTES, NO_STORE } from '#shared/http/api';
import {
  type DomainError,
  PayloadTooLargeError,
  RequestHeaderTooLargeError,
  RequestTimeoutError,
  ValidationError,
  toErrorResponse,
} from '#shared/http/errors';
import { uuidv7 } from '#shared/ids';

/**
 * What Node's HTTP parser refused, by its error code: the statuses Node itself answers (431, 413,
 * 408, else 400), but with the contract's error body instead of Node's empty one.
 */
const REFUSALS: Record<string, () => DomainError> = {
  HPE_HEADER_OVERFLOW: () => new RequestHeaderTooLargeError(),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: () => new PayloadTooLargeError(MAX_BODY_BYTES),
  ERR_HTTP_REQUEST_TIMEOUT: () => new RequestTimeoutError(),
};
const malformed = () =>
  new ValidationError('The HTTP request is malformed.', [{ path: 'request', message: 'Malformed HTTP request' }]);

/** A raw HTTP/1.1 response: the parser failed, so there is no ServerResponse to write with. */
function rawResponse(err: NodeJS.ErrnoException): string {
  const requestId = uuidv7();
  const refusal = ((err.code ? own(REFUSALS, err.code) : undefined) ?? malformed)();
  const { status, body } = toErrorResponse(refusal, requestId);
  const text = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': requestId,
    ...NO_STORE,
    connection: 'close',
  };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n${text}`;
}

/**
 * Answers requests Node's parser refuses (request line or headers over the limit, malformed
 * syntax) with the contract's error body, then closes the connection, as Node's default does.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this connection cannot take another one in the middle of it.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawResponse(err));
  });
}
