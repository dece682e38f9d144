import { describe, expect, it } from 'vitest';
import { TransactionCanceledException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DomainError, NotFoundError, UnauthorizedError, statusOf, toErrorResponse } from '#shared/http/errors';

const metadata = { $metadata: {} };

describe('the error body of an AWS throttling error', () => {
  it('is 503 service_unavailable with Retry-After, not a 500, and shows nothing of AWS', () => {
    const throttled = new ProvisionedThroughputExceededException({
      message: 'The level of configured provisioned throughput for the table was exceeded',
      ...metadata,
    });
    const answer = toErrorResponse(throttled, 'req-1');
    expect(answer).toEqual({
      status: 503,
      headers: { 'Retry-After': '1' },
      body: {
        error: { code: 'service_unavailable', message: 'The service is busy; try again shortly.' },
        request_id: 'req-1',
      },
    });
  });

  it('covers a transaction cancelled for throttling, and only that reason', () => {
    const cancelled = (Code: string) =>
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        CancellationReasons: [{ Code: 'None' }, { Code }],
        ...metadata,
      });
    expect(toErrorResponse(cancelled('ThrottlingError'), 'r').status).toBe(503);
    expect(toErrorResponse(cancelled('ValidationError'), 'r')).toMatchObject({
      status: 500,
      body: { error: { code: 'internal_error' } },
    });
  });

  it('leaves any other error a 500 without details', () => {
    const other = Object.assign(new Error('ResourceNotFoundException: Requested resource not found'), {
      name: 'ResourceNotFoundException',
    });
    expect(toErrorResponse(other, 'r')).toEqual({
      status: 500,
      headers: {},
      body: { error: { code: 'internal_error', message: 'An internal error occurred.' }, request_id: 'r' },
    });
  });
});

describe('the status of a domain error', () => {
  it("is its nearest mapped ancestor's: a subclass of a mapped error answers that error's status, not 500", () => {
    class ChatNotFoundError extends NotFoundError {
      constructor() {
        super('Chat');
      }
    }
    class ArchivedChatNotFoundError extends ChatNotFoundError {}
    expect(toErrorResponse(new ChatNotFoundError(), 'r')).toEqual({
      status: 404,
      headers: {},
      body: { error: { code: 'not_found', message: 'Chat not found.' }, request_id: 'r' },
    });
    expect(toErrorResponse(new ArchivedChatNotFoundError(), 'r').status).toBe(404);
  });

  it('keeps what its subclass adds for the caller: an unauthorized subclass still sends WWW-Authenticate', () => {
    class ExpiredKeyError extends UnauthorizedError {}
    expect(toErrorResponse(new ExpiredKeyError('This API key was rotated.'), 'r')).toMatchObject({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  });

  it('is undefined for a domain error no mapped class covers, which answers 500 without its message', () => {
    class Unmapped extends DomainError {}
    expect(statusOf(new Unmapped('made_up', 'secret detail'))).toBeUndefined();
    expect(toErrorResponse(new Unmapped('made_up', 'secret detail'), 'r')).toMatchObject({
      status: 500,
      body: { error: { code: 'internal_error', message: 'An internal error occurred.' } },
    });
  });
});
