import { afterAll, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { startXStandIn } from '#bin/standIns/xStandIn';

// X refusing to finish the authorization (here a 429 on its token endpoint) is X's failure, not the
// person's: the callback answers its 502 page, and the document declares it (api.call checks every answer).
const CLIENT = { clientId: 'x-502-client', clientSecret: 'x-502-secret' };
const x = await startXStandIn(CLIENT);
const saved = { ...process.env };
Object.assign(process.env, {
  X_CLIENT_ID: CLIENT.clientId,
  X_CLIENT_SECRET: CLIENT.clientSecret,
  X_API_BASE: x.apiBase,
  X_AUTHORIZE_URL: x.authorizeUrl,
});
const api = await startTestApi();
afterAll(async () => {
  process.env = saved;
  await x.close();
});

it('X not finishing the code exchange is the callback’s documented 502 page', async () => {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', '/integrations/moderation/communities', {
      key,
      body: { name: 'Acme on X', project_name: 'Acme', type: 'x' },
    })
  ).body;
  const account = x.addAccount({ id: '7502001', username: 'acme_502' });
  x.rateLimitNext(/^\/2\/oauth2\/token$/, 60, 'POST');
  const page = await api.call('GET', x.authorize(community.authorize_url, account.id));
  expect(page.status).toBe(502);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.text).toContain('X is not answering');
});
