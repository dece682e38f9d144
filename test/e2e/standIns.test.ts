/**
 * `npm start -- --stand-ins` and `npm run stand-in`: each row of the stand-in table sets the variables
 * it lists, and its sample, built from the session file as `npm run stand-in` builds it, is a request
 * the service accepts as the platform's own, after which the service's calls reach that row's
 * stand-in. (The README walkthrough drives the Telegram row end to end.)
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession, startStandIns } from '#bin/standIns/session';
import { STAND_INS, standInFor } from '#bin/standIns/table';
import { startTestApi } from '#test/support/api';

const variables = STAND_INS.flatMap((row) => row.variables);
const saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
const dir = mkdtempSync(join(tmpdir(), 'outreach-stand-ins-'));
process.env.STAND_IN_SESSION = join(dir, 'stand-ins.json');
const printed: string[] = [];
const session = await startStandIns((line) => printed.push(line));
const api = await startTestApi();
session.announce(api.baseUrl);
afterAll(async () => {
  await session.stop();
  for (const name of variables) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  delete process.env.STAND_IN_SESSION;
  rmSync(dir, { recursive: true, force: true });
});

const configOf = (platform: string) => readSession()!.platforms[platform];
const send = (platform: string, text: string, sampleConfig = configOf(platform)) => {
  const request = standInFor(platform)!.sample(text, sampleConfig);
  return api.call('POST', `${readSession()!.api}${request.path}`, { rawBody: request.body, headers: request.headers });
};
/** The lines printed for calls a stand-in received that contain `what` (printing runs on a short timer). */
const printedFor = async (platform: string, what: string) => {
  const matching = () => printed.filter((l) => l.startsWith(`${platform} stand-in received`) && l.includes(what));
  for (let i = 0; i < 50 && matching().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  return matching();
};

describe('the stand-in table', () => {
  it('sets every variable each row lists, pointing the API bases at local stand-ins; the session file is private', () => {
    for (const name of variables) expect(process.env[name], name).toBeTruthy();
    expect(process.env.TELEGRAM_API_BASE).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(process.env.DISCORD_API_BASE).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(process.env.DISCORD_PUBLIC_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(readSession()!.platforms).sort()).toEqual(STAND_INS.map((r) => r.platform).sort());
    expect(statSync(process.env.STAND_IN_SESSION!).mode & 0o077).toBe(0);
  });

  it('a Discord sample is a signed interaction the service accepts: /activate binds the guild and writes AutoMod rules into the stand-in', {
    timeout: 60_000,
  }, async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'Guild', project_name: 'Acme', type: 'discord' },
      })
    ).body;
    const answer = await send('discord', `/activate token:${community.activation_token}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.content).toContain('Moderation is on');
    await api.ports.queue.drained();
    expect(
      (await printedFor('discord', 'POST /guilds/1300000000000000001/auto-moderation/rules')).length,
    ).toBeGreaterThan(0);
    // The same sample signed with any other key is refused.
    const other = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(
      (
        await send('discord', `/activate token:${community.activation_token}`, {
          ...configOf('discord'),
          privateKey: other,
        })
      ).status,
    ).toBe(401);
  });

  it('a Telegram sample from the sample group: /activate by its administrator connects the community', {
    timeout: 60_000,
  }, async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'Group', project_name: 'Acme', type: 'telegram' },
      })
    ).body;
    expect((await send('telegram', `/activate ${community.activation_token}`)).status).toBe(200);
    await api.ports.queue.drained();
    expect(await printedFor('telegram', 'Moderation is on for this group.')).toHaveLength(1);
    const status = (await api.call('GET', `/integrations/moderation/status?community_id=${community.id}`, { key }))
      .body;
    expect(status).toMatchObject({ status: 'connected', platform: { chat_id: '-1001234567890', configured: true } });
    expect((await send('telegram', 'hello', { secret: 'not-the-secret' })).status).toBe(401);
  });

  it('a Crisp sample is a signed plugin hook: /activate from the operator binds the website, a scam from the visitor is deleted', {
    timeout: 60_000,
  }, async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'Site', project_name: 'Acme', type: 'crisp' },
      })
    ).body;
    expect((await send('crisp', `/activate ${community.activation_token}`)).status).toBe(200);
    await api.ports.queue.drained();
    const status = (await api.call('GET', `/integrations/moderation/status?community_id=${community.id}`, { key }))
      .body;
    expect(status).toMatchObject({ status: 'connected', platform: { configured: true } });
    expect(
      (await send('crisp', 'Claim your free airdrop now at https://acme-drop.xyz, connect your wallet')).status,
    ).toBe(200);
    await api.ports.queue.drained();
    expect(
      (await printedFor('crisp', 'DELETE /website/sample-website/conversation/session_sample_visitor/message/')).length,
    ).toBeGreaterThan(0);
    expect((await send('crisp', 'hello', { hookSecret: 'not-the-secret' })).status).toBe(401);
  });
});
