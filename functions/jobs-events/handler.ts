import { streamifyResponse, startHttpStream } from '../../shared/http/streaming';

// Placeholder until the enrichment-jobs issue lands: the SSE route streams from this function.
export const handler = streamifyResponse(async (_event, responseStream) => {
  const out = startHttpStream(responseStream, { statusCode: 404, headers: { 'content-type': 'application/json' } });
  out.end(JSON.stringify({ error: { code: 'not_found', message: 'Endpoint not found.' }, request_id: 'none' }));
});
