import { describe, expect, it } from 'vitest';
import { contractViolation } from '#test/support/contract';

// The e2e suites trust this check to fail them on drift; it has to see each kind of drift.
describe('contractViolation: the response check every e2e call goes through', () => {
  const error = JSON.stringify({ error: { code: 'not_found', message: 'Chat not found.' }, request_id: 'r' });
  const chatId = '0196d0a4-0000-7000-8000-000000000000';

  it('accepts a declared status with a body of its schema', () => {
    expect(contractViolation('GET', `/api/v1/chats/${chatId}`, 404, 'application/json', error)).toBeUndefined();
    expect(
      contractViolation(
        'GET',
        '/api/v1/health',
        200,
        'application/json; charset=utf-8',
        JSON.stringify({ status: 'ok', time: 'now' }),
      ),
    ).toBeUndefined();
  });

  it('refuses a status the operation does not declare', () => {
    expect(contractViolation('GET', '/api/v1/health', 404, 'application/json', error)).toMatch(/status not declared/);
    expect(contractViolation('GET', '/api/v1/chats', 402, 'application/json', error)).toMatch(/status not declared/);
  });

  it('refuses a content type the status does not declare, and accepts the export alternates', () => {
    expect(contractViolation('GET', '/api/v1/health', 200, 'text/plain', 'ok')).toMatch(/content type/);
    expect(contractViolation('GET', `/api/v1/bd/jobs/${chatId}/export`, 200, 'text/csv', 'a,b\n')).toBeUndefined();
  });

  it('refuses a body off its schema', () => {
    expect(
      contractViolation(
        'GET',
        '/api/v1/health',
        200,
        'application/json',
        JSON.stringify({ status: 'down', time: 'now' }),
      ),
    ).toMatch(/does not match/);
    expect(
      contractViolation('GET', `/api/v1/chats/${chatId}`, 404, 'application/json', JSON.stringify({ message: 'nope' })),
    ).toMatch(/does not match/);
    expect(contractViolation('GET', `/api/v1/chats/${chatId}`, 404, 'application/json', 'not json')).toMatch(
      /not JSON/,
    );
  });

  it('wants the error body and 404 from a route the document does not have', () => {
    expect(contractViolation('GET', '/api/v1/nope', 404, 'application/json', error)).toBeUndefined();
    expect(contractViolation('GET', '/api/v1/nope', 200, 'application/json', '{}')).toMatch(/no operation/);
  });
});
