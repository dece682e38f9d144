/**
 * The web console in a real browser (the system's Chromium driven by playwright-core, no browser
 * download) against the local API: the key pasted, the balance and the chart, a job's bar reaching
 * 100 % over the fetch-based event stream, a mute undone, and axe-core finding no serious
 * violation. Without a Chromium the suite is skipped and says so (install: apt-get install -y chromium).
 * CONSOLE_SCREENSHOTS=1 also writes docs/console/*.png at 375 px wide and *-1280.png at 1280.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { workerHandler } from '#bin/local/handlers';
import { reloadConfig } from '#shared/config/config';
import { disableEndpoint, markFailing } from '#shared/store/webhookEndpointsRepo';
import { startTestApi } from '#test/support/api';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';

// CHROMIUM_PATH, when set, is the only one tried.
const CANDIDATES = process.env.CHROMIUM_PATH
  ? [process.env.CHROMIUM_PATH]
  : ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const chromium = CANDIDATES.find((p): p is string => !!p && existsSync(p));
if (!chromium)
  console.warn(
    `SKIPPED: the console's browser suite (test/browser/console.test.ts) found no Chromium at ${CANDIDATES.join(', ')}; install it with apt-get install -y chromium or set CHROMIUM_PATH`,
  );

const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? join(PROJECT_ROOT, 'docs/console') : undefined;
const TOKEN = '7000:operator-bot-token';
const SECRET = 'webhook-secret-console';
const BASE = '/integrations/moderation';

// The stream polls the job every 2 s in production; quicker here so the bar moves within the test.
process.env.JOB_EVENTS_POLL_MS = '150';
const telegram = await startTelegramStandIn(TOKEN);
const saved = { ...process.env };
Object.assign(process.env, {
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_WEBHOOK_SECRET: SECRET,
  TELEGRAM_API_BASE: telegram.apiBase,
});
const api = await startTestApi();
afterAll(async () => {
  for (const name of ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_API_BASE', 'JOB_EVENTS_POLL_MS']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await telegram.close();
});

describe.skipIf(!chromium)('web console in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let key: string;
  const cspViolations: string[] = [];
  const notFound: string[] = []; // every address the page asked for and did not get (a favicon used to be one)

  beforeAll(async () => {
    key = (await api.newUser({ tier: 'pro', credits: 5000 })).key;
    const { chromium: driver } = await import('playwright-core');
    browser = await driver.launch({
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() === 404) notFound.push(r.url());
    });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  const shot = async (name: string) => {
    if (!SHOTS) return;
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    // And as on a laptop; the suite goes on at the phone's width.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, `${name}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
  };
  const seriousViolations = async () => {
    // Evaluated through the driver, not as a page script: the page's CSP rightly refuses inline scripts.
    const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(source);
    const result = await page.evaluate(async () => (globalThis as any).axe.run({ resultTypes: ['violations'] }));
    return (result.violations as { id: string; impact: string; nodes: unknown[] }[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
  };
  const tab = (name: string) => page.getByRole('link', { name }).click();

  it('serves the page without a key, under a CSP that allows only its own scripts', async () => {
    const response = await page.goto(`${api.baseUrl}/console`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await page.getByLabel('API key').waitFor();
    expect(await seriousViolations()).toEqual([]);
    await shot('key');
  });

  it("shows the API's message for a wrong key, and keeps the key out of localStorage and the address", async () => {
    await page.getByLabel('API key').fill('sk_live_wrong');
    await page.getByRole('button', { name: 'Open the console' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\S/);
    const unauthorized = await api.call('GET', '/users/me', { key: 'sk_live_wrong' });
    expect(await page.getByRole('alert').textContent()).toContain(unauthorized.body.error.message);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Open the console' }).click();
    await page.getByTestId('balance').waitFor();
    expect(
      await page.evaluate(() => JSON.stringify((globalThis as { localStorage?: unknown }).localStorage)),
    ).not.toContain(key);
    expect(page.url()).not.toContain(key);
  });

  it('starts a job whose bar reaches 100 % over the event stream', async () => {
    await tab('Jobs');
    await page.getByText('No jobs yet').waitFor();
    await page.getByLabel('Sample companies').fill('40');
    await page.getByRole('button', { name: 'Start a sample job' }).click();
    const job = page.locator('li.job').first();
    await job.waitFor();
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const pct = (await job.locator('.pct').textContent()) ?? '';
          seen.add(pct);
          return pct;
        },
        { timeout: 90_000, interval: 100 },
      )
      .toBe('100 %');
    await job.locator('.badge.completed').waitFor({ timeout: 30_000 });
    expect(await job.getByRole('button', { name: 'Export CSV' }).count()).toBe(1);
    expect(seen.size, `progress seen: ${[...seen].join(', ')}`).toBeGreaterThan(1);
    expect(await seriousViolations()).toEqual([]);
    await shot('jobs');
  }, 150_000);

  it("exports a completed job's rows as the API gives them, CSV and JSON", async () => {
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const body = {
      preset: 'full_pipeline',
      input_assets: { companies: [{ company_name: 'Nebula Labs', domain: 'nebulalabs.io' }] },
    };
    const jobId = (await api.call('POST', '/bd/jobs', { key: own.key, body })).body.job_id;
    await api.ports.queue.drained();
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await tabPage.goto(`${api.baseUrl}/console#jobs`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      // Where the delivered values came from, as the job's stats count the rows.
      const sources = (await api.call('GET', `/bd/jobs/${jobId}`, { key: own.key })).body.stats.rows_by_source;
      expect(Object.keys(sources).length).toBeGreaterThan(0);
      await expect
        .poll(() => tabPage.locator('.sources').textContent())
        .toBe(
          `Rows by source: ${Object.entries(sources)
            .map(([source, rows]) => `${source} ${rows}`)
            .join(', ')}`,
        );
      for (const format of ['csv', 'json'] as const) {
        const [file] = await Promise.all([
          tabPage.waitForEvent('download'),
          tabPage.getByRole('button', { name: `Export ${format.toUpperCase()}` }).click(),
        ]);
        expect(file.suggestedFilename()).toBe(`job-${jobId}.${format}`);
        const saved = readFileSync(await file.path(), 'utf8');
        const exported = await api.call('GET', `/bd/jobs/${jobId}/export?format=${format}`, { key: own.key });
        expect(saved, format).toBe(exported.text);
      }
    } finally {
      await tabPage.close();
    }
  });

  it('shows the balance the API reports and the credits used per day as a chart and by tool', async () => {
    await tab('Credits');
    const status = (await api.call('GET', '/subscriptions/status', { key })).body;
    await expect
      .poll(() => page.getByTestId('balance').textContent())
      .toBe(status.credits_total.toLocaleString('en-US'));
    const usage = (await api.call('GET', '/credits/usage', { key })).body;
    expect(usage.total_used).toBeGreaterThan(0);
    await page.locator('.chart rect.bar').first().waitFor({ state: 'attached' });
    expect(await page.locator('.chart rect.bar').count()).toBe(usage.by_day.length);
    expect(await page.locator('table tbody tr').count()).toBe(usage.by_tool.length);
    // Tools by the names people know, not their ids; the projection says what it is (30 days at the range's rate).
    expect(usage.by_tool.map((t: { tool_name: string }) => t.tool_name)).toContain('bd_job');
    expect(await page.locator('table tbody').textContent()).toContain('Enrichment jobs');
    expect(await page.locator('table tbody').textContent()).not.toContain('bd_job');
    await page.getByText('30 days at this rate').waitFor();
    expect(await seriousViolations()).toEqual([]);
    await shot('credits');
  });

  it('connects a Telegram community with the shown line, reviews a removal, "Not spam" undoes and teaches it, and tunes the rules', async () => {
    const community = (
      await api.call('POST', `${BASE}/communities`, {
        key,
        body: {
          name: 'Acme chat',
          project_name: 'Acme',
          type: 'telegram',
          whitelisted_usernames: [],
          alert_channel_message_template: '{action}: @{username}',
        },
      })
    ).body;
    const chat = { id: -1009000000001, type: 'supergroup', title: 'Acme' };
    const admin = { id: 10, is_bot: false, first_name: 'Ada', username: 'ada_admin' };
    const spammer = { id: 66, is_bot: false, first_name: 'Free', username: 'free_airdrops' };
    telegram.setMemberStatus(chat.id, admin.id, 'administrator');
    const post = (update_id: number, from: object, text: string) =>
      api.call('POST', `${BASE}/telegram`, {
        body: { update_id, message: { message_id: update_id, date: Math.floor(Date.now() / 1000), chat, from, text } },
        headers: { 'x-telegram-bot-api-secret-token': SECRET },
      });
    await tab('Moderation');
    const card = page.getByRole('article', { name: 'Acme chat' });
    await card.getByText('Telegram', { exact: true }).waitFor();
    await card.getByText('Waiting to be connected').waitFor();
    // The line the console shows is what the administrator sends in the group.
    const line = (await card.locator('code.command').filter({ hasText: '/activate' }).textContent()) ?? '';
    expect(line).toBe(`/activate ${community.activation_token}`);
    expect((await post(1, admin, line)).status).toBe(200);
    // A message the community's own members write too, scored as spam here: warned first, muted when repeated.
    const text = 'free tokens for all members who message me today';
    expect((await post(2, spammer, text)).status).toBe(200);
    expect((await post(3, spammer, text)).status).toBe(200);
    await api.ports.queue.drained();
    const check = async () =>
      (await api.call('POST', `${BASE}/communities/${community.id}/check`, { key, body: { messages: [{ text }] } }))
        .body.results[0];
    expect((await check()).action).not.toBe('allow');
    await page.reload();
    await card.getByText('Connected', { exact: true }).waitFor();
    // The review list: each action with its score and signals; Undo only where it can succeed (a warning cannot).
    const mute = card.getByRole('listitem').filter({ hasText: 'Muted · free_airdrops' });
    await mute.getByRole('list', { name: 'Signals' }).getByText('Free prize, gift or mint').first().waitFor();
    expect(await mute.textContent()).toMatch(/Score \d+%/);
    expect(await card.getByRole('button', { name: 'Not spam: warn of free_airdrops' }).textContent()).toBe('Not spam');
    expect(await seriousViolations()).toEqual([]);
    await shot('moderation');
    const before = telegram.calls.length;
    await mute.getByRole('button', { name: 'Not spam: mute of free_airdrops' }).click();
    await mute.getByText(/Undone .*taught as not spam/).waitFor({ timeout: 30_000 });
    await api.ports.queue.drained();
    expect(telegram.calls.slice(before).map((c: { method: string }) => c.method)).toContain('restrictChatMember');
    // Taught: the same text is allowed now, and the figures say what was corrected.
    expect((await check()).action).toBe('allow');
    await card.getByText('Undone (wrongly removed)').waitFor();
    const status = (await api.call('GET', `${BASE}/status?community_id=${community.id}`, { key })).body;
    expect(status.metrics).toMatchObject({ actions_undone: 1, examples_taught: 1 });

    // Try a message: the check's verdict and signals, without acting.
    await card.getByText('Try a message').click();
    await card.getByLabel('Message', { exact: true }).fill('Connect your wallet here to claim the bonus');
    await card.getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => card.getByTestId('verdict').textContent()).toMatch(/Spam: would mute/);
    await card.getByRole('button', { name: 'Mark as spam' }).click();
    await card.getByText(/Taught as spam/).waitFor();
    const taught = (await api.call('GET', `${BASE}/status?community_id=${community.id}`, { key })).body.metrics;
    expect(taught.examples_taught).toBe(2);

    // Tune: sensitivity and an official domain through the form; captcha is offered on Telegram.
    await card.getByText('Rules', { exact: true }).click();
    await card.getByLabel('Sensitivity').selectOption('low');
    await card.getByLabel(/Official domains/).fill('acme.org');
    expect(await card.getByLabel('Captcha for new members').count()).toBe(1);
    await card.getByRole('button', { name: 'Save rules' }).click();
    await card.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const rules = (await api.call('GET', `${BASE}/communities/${community.id}/rules`, { key })).body;
    expect(rules).toMatchObject({ sensitivity: 'low', official_domains: ['acme.org'], mode: 'enforce' });

    // A fresh token: the old line stops working, the card shows the new one.
    await card.getByText(/Connect elsewhere on Telegram/).click();
    await card.getByRole('button', { name: 'New activation token' }).click();
    const shown = card.locator('code.command').filter({ hasText: '/activate' });
    await shown.waitFor();
    const fresh = (await api.call('GET', `${BASE}/communities/${community.id}`, { key })).body.activation_token;
    expect(fresh).not.toBe(community.activation_token);
    expect(await shown.textContent()).toBe(`/activate ${fresh}`);
  }, 90_000);

  it('offers no captcha where the platform has none, and says how to connect there', async () => {
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const body = { name: 'Sub', project_name: 'Sub', type: 'reddit', whitelisted_usernames: [] };
    const community = (await api.call('POST', `${BASE}/communities`, { key: own.key, body })).body;
    const tabPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await tabPage.goto(`${api.baseUrl}/console#moderation`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      const card = tabPage.getByRole('article', { name: 'Sub' });
      await card.getByText('Reddit', { exact: true }).waitFor();
      await card
        .locator('code.command')
        .filter({ hasText: `/activate ${community.activation_token} r/` })
        .waitFor();
      await card.getByText('Rules', { exact: true }).click();
      await card.getByLabel('Sensitivity').waitFor();
      expect(await card.getByLabel('Captcha for new members').count()).toBe(0);
    } finally {
      await tabPage.close();
    }
  });

  it('pages past 20 communities', async () => {
    const own = await api.newUser({ tier: 'pro', credits: 20_000 });
    for (let i = 1; i <= 24; i++) {
      const body = { name: `Community ${i}`, project_name: 'Many', type: 'telegram', whitelisted_usernames: [] };
      expect((await api.call('POST', `${BASE}/communities`, { key: own.key, body })).status).toBe(201);
    }
    const tabPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await tabPage.goto(`${api.baseUrl}/console#moderation`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      await tabPage.getByText('20 of 24 communities shown').waitFor();
      expect(await tabPage.locator('article.community').count()).toBe(20);
      await tabPage.getByRole('button', { name: 'Show more communities' }).click();
      await expect.poll(() => tabPage.locator('article.community').count()).toBe(24);
      await tabPage.getByRole('article', { name: 'Community 1', exact: true }).waitFor();
      expect(await tabPage.getByRole('button', { name: 'Show more communities' }).count()).toBe(0);
      // Every list pages the same way: chats too.
      for (let i = 1; i <= 22; i++)
        expect((await api.call('POST', '/chats', { key: own.key, body: { title: `Chat ${i}` } })).status).toBe(201);
      await tabPage.getByRole('link', { name: 'Results & chats' }).click();
      await tabPage.getByText('20 of 22 chats shown').waitFor();
      await tabPage.getByRole('button', { name: 'Show more chats' }).click();
      await tabPage.getByText('All 22 chats shown').waitFor();
      expect(await tabPage.getByRole('region', { name: 'Chats' }).getByRole('listitem').count()).toBe(22);
    } finally {
      await tabPage.close();
    }
  }, 60_000);

  it("keeps a spammer's long link and name within a 375 px screen", async () => {
    // The audit log shows what spammers wrote and chose as names: a link or a name without a space
    // used to widen the whole page past the phone (1,318 px), the time and rules off to the side; an
    // empty log's hint (its API path) did too.
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      const quiet = { name: 'Quiet', project_name: 'Quiet', type: 'telegram', whitelisted_usernames: [] };
      expect((await api.call('POST', `${BASE}/communities`, { key: own.key, body: quiet })).status).toBe(201);
      const community = (
        await api.call('POST', `${BASE}/communities`, {
          key: own.key,
          body: { name: 'Long lines', project_name: 'Long', type: 'telegram', whitelisted_usernames: [] },
        })
      ).body;
      const sent_at = new Date().toISOString();
      const spammer = { id: 'u-long', username: `claim_${'x'.repeat(60)}` };
      const events = [
        { event_id: 'long-1', type: 'activation', user: { id: 'u-admin' }, token: community.activation_token, sent_at },
        { event_id: 'long-2', type: 'member_join', user: spammer, sent_at },
        {
          event_id: 'long-3',
          type: 'message',
          user: spammer,
          text: `Connect your wallet here to claim the bonus https://claim.example/${'a'.repeat(150)}`,
          sent_at,
        },
      ];
      const decided = await api.call('POST', `${BASE}/communities/${community.id}/events`, {
        key: own.key,
        body: { events },
      });
      expect(decided.body.decisions.at(-1).action).toBe('mute');
      await tabPage.goto(`${api.baseUrl}/console#moderation`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      // Activated through the events endpoint, not in a Telegram group: nothing to lift there, so only teaching is offered.
      await tabPage.getByRole('button', { name: `Not spam: mute of ${spammer.username}` }).waitFor();
      await tabPage.getByText('No actions yet').waitFor();
      expect(await tabPage.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    } finally {
      await tabPage.close();
    }
  });

  it('shows an entry’s score and signals, and a "Not spam" mark teaches the community', async () => {
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const community = (
      await api.call('POST', `${BASE}/communities`, {
        key: own.key,
        body: { name: 'Marks', project_name: 'Marks', type: 'telegram', whitelisted_usernames: [] },
      })
    ).body;
    const sent_at = new Date().toISOString();
    const member = { id: 'u-mark', username: 'new_member' };
    const text = 'look https://docs.partner.example for the schedule';
    const events = [
      { event_id: 'mark-1', type: 'activation', user: { id: 'u-admin' }, token: community.activation_token, sent_at },
      { event_id: 'mark-2', type: 'member_join', user: member, sent_at },
      { event_id: 'mark-3', type: 'message', user: member, text, sent_at },
    ];
    const decided = await api.call('POST', `${BASE}/communities/${community.id}/events`, {
      key: own.key,
      body: { events },
    });
    const action = decided.body.decisions.at(-1).action;
    expect(['delete', 'warn']).toContain(action);
    const scoreOf = async () =>
      (
        await api.call('POST', `${BASE}/communities/${community.id}/check`, {
          key: own.key,
          body: { messages: [{ text, is_new_member: true }] },
        })
      ).body.results[0].score as number;
    const before = await scoreOf();
    const tabPage = await browser.newPage();
    try {
      await tabPage.goto(`${api.baseUrl}/console#moderation`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      await tabPage.getByText(/Score \d+%/).waitFor();
      await tabPage.getByRole('button', { name: `Not spam: ${action} of ${member.username}` }).click();
      await tabPage.getByText('Taught as not spam').waitFor();
    } finally {
      await tabPage.close();
    }
    expect(await scoreOf()).toBeLessThan(before);
  });

  it('lists results, chats and webhooks with empty states that say what to do', async () => {
    await tab('Results & chats');
    await page.getByRole('heading', { name: 'Chats' }).waitFor();
    await page.getByText('No chats yet').waitFor();
    // The finished job's stored result, opened in full.
    const results = (await api.call('GET', '/results', { key })).body.items;
    expect(results.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Open' }).first().click();
    await expect.poll(() => page.locator('pre').textContent()).toContain(results[0].id);
    // What Open opened is brought into view and focused (it used to land 1,250 px below, unseen).
    await expect
      .poll(() => page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''"))
      .toMatch(/^Opened: /);
    expect(await page.getByRole('region', { name: /^Opened: / }).isVisible()).toBe(true);
    await shot('results');
    await tab('Webhooks');
    await page.getByText('No endpoints yet').waitFor();
    expect(await seriousViolations()).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('creates a webhook endpoint, shows its secret once, rotates and deletes it; deliveries stack on a phone', async () => {
    await tab('Webhooks');
    const url = 'http://127.0.0.1:9/console-hook';
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('job.completed').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const item = page.getByRole('listitem').filter({ hasText: url });
    await item.waitFor();
    const first = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(first).toMatch(/^whsec_/);
    const listed = (await api.call('GET', '/webhooks/endpoints', { key })).body.items;
    expect(listed.map((e: { url: string; event_types: string[] }) => [e.url, e.event_types])).toEqual([
      [url, ['job.completed']],
    ]);
    await page.getByRole('button', { name: 'I stored it' }).click();
    page.once('dialog', (d) => d.accept());
    await item.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').textContent()).toMatch(/^whsec_/);
    expect(await page.getByTestId('webhook-secret').textContent()).not.toBe(first);
    expect(await seriousViolations()).toEqual([]);
    await shot('webhooks');
    page.once('dialog', (d) => d.accept());
    await item.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No endpoints yet').waitFor();
    expect((await api.call('GET', '/webhooks/endpoints', { key })).body.items).toEqual([]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(cspViolations).toEqual([]);
    expect(notFound).toEqual([]);
  });

  it("stacks a delivery's cells on a phone, Retry within the screen", async () => {
    // At 375 px the deliveries table hid Attempts, Answer and Retry past the right edge, with no cue.
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const body = { url: 'http://127.0.0.1:9/stacked', event_types: ['job.completed'] };
    expect((await api.call('POST', '/webhooks/endpoints', { key: own.key, body })).status).toBe(201);
    const job = { preset: 'full_pipeline', input_assets: { companies: [{ company_name: 'Row', domain: 'row.io' }] } };
    expect((await api.call('POST', '/bd/jobs', { key: own.key, body: job })).status).toBe(202);
    await api.ports.queue.drained();
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await tabPage.goto(`${api.baseUrl}/console#webhooks`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      const retry = tabPage.getByRole('button', { name: /^Retry delivery/ }).first();
      await retry.waitFor({ timeout: 30_000 });
      const box = await retry.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(375);
      const label = await tabPage
        .locator('td[data-label="Attempts"]')
        .first()
        .evaluate((td) => (globalThis as any).getComputedStyle(td, '::before').content as string);
      expect(label).toBe('"Attempts"');
      expect(await tabPage.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    } finally {
      await tabPage.close();
    }
  }, 60_000);

  it('tells a developer account that sample jobs need a pro subscription', async () => {
    const own = await api.newUser();
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await tabPage.goto(`${api.baseUrl}/console#jobs`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      await tabPage.getByText('Jobs need an active pro subscription').waitFor();
      expect(await tabPage.getByRole('button', { name: 'Start a sample job' }).isDisabled()).toBe(true);
    } finally {
      await tabPage.close();
    }
  });

  it('shows a disabled webhook endpoint as disabled, with the reason', async () => {
    // An endpoint disabled after 5 days of failures receives nothing more; the list showed it like a working one.
    const own = await api.newUser();
    const body = { url: 'http://127.0.0.1:9/failing', event_types: ['job.completed'] };
    const endpoint = (await api.call('POST', '/webhooks/endpoints', { key: own.key, body })).body;
    const at = new Date().toISOString();
    await markFailing(own.user.id, endpoint.id, at);
    const reason = `Every delivery failed for 5 days (since ${at})`;
    await disableEndpoint(own.user.id, endpoint.id, reason, at);
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await tabPage.goto(`${api.baseUrl}/console#webhooks`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      const item = tabPage.getByRole('listitem').filter({ hasText: body.url });
      await item.waitFor();
      expect(await item.textContent()).toContain('disabled');
      expect(await item.textContent()).toContain(reason);
    } finally {
      await tabPage.close();
    }
  });

  it("follows a job's stream again when the server ends it before the job ends", async () => {
    // The stream ends before its function's time runs out (15 minutes deployed) and the client is to
    // reconnect; the bar used to stop there, the job shown pending for good. A poll interval within 5 s of
    // the local server's 30 s of time left ends each stream after its first event.
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    api.ports.queue.stop();
    process.env.JOB_EVENTS_POLL_MS = '26000';
    reloadConfig();
    try {
      const body = {
        preset: 'full_pipeline',
        input_assets: { companies: [{ company_name: 'Later', domain: 'later.io' }] },
      };
      expect((await api.call('POST', '/bd/jobs', { key: own.key, body })).status).toBe(202);
      // Chromium reports a fetch body read to its end through a reader as aborted: either way, it ended.
      let ended = 0;
      const count = (request: { url(): string }) => {
        if (request.url().endsWith('/events')) ended += 1;
      };
      tabPage.on('requestfinished', count);
      tabPage.on('requestfailed', count);
      await tabPage.goto(`${api.baseUrl}/console#jobs`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      await tabPage.locator('li.job[data-status="pending"]').waitFor();
      await expect.poll(() => ended).toBeGreaterThan(0); // the server ended the first stream
    } finally {
      process.env.JOB_EVENTS_POLL_MS = '150';
      reloadConfig();
      api.ports.queue.setConsumer(async (event) => (await workerHandler())(event));
    }
    try {
      await tabPage.locator('li.job .badge.completed').waitFor({ timeout: 30_000 });
    } finally {
      await tabPage.close();
    }
  }, 60_000);

  it('still starts a job while more jobs run than the browser opens connections to one host', async () => {
    // Each running job's bar holds its event stream open, and Chromium opens at most 6 connections to a
    // host over HTTP/1.1 (the local server): with 7 jobs pending, every other call used to wait behind them.
    const own = await api.newUser({ tier: 'pro', credits: 5000 });
    const tabPage = await browser.newPage({ viewport: { width: 375, height: 800 } });
    api.ports.queue.stop(); // the jobs stay pending, so their streams stay open
    try {
      for (let i = 1; i <= 7; i++) {
        const body = {
          preset: 'full_pipeline',
          input_assets: { companies: [{ company_name: `Held ${i}`, domain: `held-${i}.io` }] },
        };
        expect((await api.call('POST', '/bd/jobs', { key: own.key, body })).status).toBe(202);
      }
      await tabPage.goto(`${api.baseUrl}/console#jobs`);
      await tabPage.getByLabel('API key').fill(own.key);
      await tabPage.getByRole('button', { name: 'Open the console' }).click();
      await tabPage.locator('li.job').nth(6).waitFor();
      await tabPage.getByLabel('Sample companies').fill('2');
      await tabPage.getByRole('button', { name: 'Start a sample job' }).click();
      await tabPage.locator('li.job').nth(7).waitFor({ timeout: 20_000 });
      expect((await api.call('GET', '/bd/jobs', { key: own.key })).body.total).toBe(8);
    } finally {
      api.ports.queue.setConsumer(async (event) => (await workerHandler())(event));
      await tabPage.close();
    }
  }, 60_000);
});
