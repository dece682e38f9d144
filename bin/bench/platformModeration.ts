/**
 * Moderation on the platforms: how long from a Telegram update reaching the webhook to the Bot API
 * call it causes reaching Telegram. A small recording Bot API answers locally (what Telegram would),
 * so the figure is the service's own: webhook, engine, planning, queue and the adapter.
 */
import { mustGet } from '#shared/maps';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchSuite } from './harness';
import { reloadConfig } from '#shared/config/config';

const BASE = '/integrations/moderation';
const TOKEN = 'bench:token';
const SECRET = 'bench-webhook-secret';

async function startBotApi(onCall: (method: string, body: Record<string, unknown>) => void) {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const method = req.url?.split('/').pop() ?? '';
      const body = raw ? JSON.parse(raw) : {};
      onCall(method, body);
      const result =
        method === 'getChatMember'
          ? { status: 'administrator', user: { id: body.user_id } }
          : method === 'sendMessage'
            ? { message_id: 1, date: 0, chat: { id: body.chat_id } }
            : true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const platformModerationBench: BenchSuite = {
  name: 'Moderation on Telegram (update to Bot API call)',
  async run({ call, baseUrl, print }) {
    const arrivals = new Map<number, number>();
    const api = await startBotApi((method, body) => {
      if (method === 'deleteMessage') arrivals.set(Number(body.message_id), performance.now());
    });
    const saved = {
      token: process.env.TELEGRAM_BOT_TOKEN,
      secret: process.env.TELEGRAM_WEBHOOK_SECRET,
      base: process.env.TELEGRAM_API_BASE,
    };
    Object.assign(process.env, {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_BASE: api.url,
    });
    reloadConfig();
    try {
      const community = await call('POST', `${BASE}/communities`, {
        body: { name: 'Bench TG', project_name: 'Bench', type: 'telegram' },
        expect: 201,
      });
      const chat = { id: -100777, type: 'supergroup', title: 'Bench' };
      let update = 1;
      const post = (body: object) =>
        fetch(`${baseUrl}${BASE}/telegram`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
          body: JSON.stringify(body),
        });
      const date = Math.floor(Date.now() / 1000);
      await post({
        update_id: update++,
        message: {
          message_id: 1,
          date,
          chat,
          from: { id: 1, is_bot: false, first_name: 'Admin' },
          text: `/activate ${community.activation_token}`,
        },
      });

      const n = 50;
      const webhook: number[] = [];
      const toPlatform: number[] = [];
      for (let i = 0; i < n; i++) {
        const messageId = 1000 + i;
        const start = performance.now();
        const res = await post({
          update_id: update++,
          message: {
            message_id: messageId,
            date,
            chat,
            from: { id: 5000 + i, is_bot: false, first_name: 'Spam' },
            text: 'Connect your wallet to claim the airdrop',
          },
        });
        webhook.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
        while (!arrivals.has(messageId)) await new Promise((r) => setTimeout(r, 1));
        toPlatform.push(mustGet(arrivals, messageId, 'arrivals') - start);
      }
      webhook.sort((a, b) => a - b);
      toPlatform.sort((a, b) => a - b);
      const line = (label: string, times: number[]) =>
        print(
          `${label.padEnd(48)} n=${String(n).padStart(4)}  p50=${percentile(times, 50).toFixed(1).padStart(7)} ms  p95=${percentile(times, 95).toFixed(1).padStart(7)} ms`,
        );
      line('POST /telegram (spam update, answered)', webhook);
      line('update received -> deleteMessage at Telegram', toPlatform);
    } finally {
      api.close();
      for (const [name, value] of [
        ['TELEGRAM_BOT_TOKEN', saved.token],
        ['TELEGRAM_WEBHOOK_SECRET', saved.secret],
        ['TELEGRAM_API_BASE', saved.base],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      reloadConfig();
    }
  },
};
