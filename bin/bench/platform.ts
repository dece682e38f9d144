import type { BenchSuite } from './harness';

const N = 300;

/** Every platform endpoint: p50/p95 over a few hundred sequential requests and DynamoDB requests per request. */
export const platformBench: BenchSuite = {
  name: 'Platform (account, credits, chats, results)',
  async run({ call, measure, developerKey }) {
    await measure('GET /health', N, () => call('GET', '/health'));
    await measure('GET /users/me', N, () => call('GET', '/users/me'));
    await measure('PATCH /users/me', N, (i) => call('PATCH', '/users/me', { body: { full_name: `Bench ${i}` } }));
    await measure('GET /subscriptions/status', N, () => call('GET', '/subscriptions/status'));
    await measure('GET /credits/usage', N, () => call('GET', '/credits/usage'));
    await measure('POST /subscriptions/checkout-session', 100, () =>
      call('POST', '/subscriptions/checkout-session', { body: { tier: 'pro' } }),
    );
    const chats: string[] = [];
    await measure('POST /chats', N, async () =>
      chats.push((await call('POST', '/chats', { body: { title: 'Bench chat' } })).id),
    );
    await measure('GET /chats (page of 50)', N, () => call('GET', '/chats?limit=50'));
    await measure('GET /chats/{id}', N, (i) => call('GET', `/chats/${chats[i % chats.length]}`));
    await measure('PUT /chats/{id}', N, (i) =>
      call('PUT', `/chats/${chats[i % chats.length]}`, {
        body: { messages: [{ role: 'user', content: `message ${i}` }] },
      }),
    );
    await measure('DELETE /chats/{id}', 100, (i) => call('DELETE', `/chats/${chats[i]}`));
    await measure('GET /results (page of 50)', N, () => call('GET', '/results?limit=50'));
    let key = developerKey;
    await measure('POST /users/me/api-key', 100, async () => {
      key = (await call('POST', '/users/me/api-key', { key })).api_key;
    });
  },
};
