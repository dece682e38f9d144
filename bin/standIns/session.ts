/**
 * `npm start -- --stand-ins`: every stand-in of the table runs in the server's process, the server is
 * pointed at them, and each call a stand-in receives is printed as it arrives, so a person sees what
 * the service did on the platform. The session file tells `npm run stand-in` where to send samples.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { STAND_INS, type RunningStandIn, type StandInRow } from './table';
import { reloadConfig } from '#shared/config/config';

/** STAND_IN_SESSION moves it (tests, so a running `npm start` keeps its own). */
export const sessionFile = (): string =>
  process.env.STAND_IN_SESSION || resolve(process.cwd(), '.data', 'stand-ins.json');

export interface StandInSession {
  api: string;
  platforms: Record<string, Record<string, string>>;
}

/** How often new recorded calls are looked for and printed. */
const PRINT_EVERY_MS = 200;
/** A body past this is printed cut (the AutoMod phishing rule carries up to 1,000 domains). */
const PRINTED_BODY_CHARS = 600;
const printedBody = (body: unknown): string => {
  const text = JSON.stringify(body ?? null);
  return text.length <= PRINTED_BODY_CHARS ? text : `${text.slice(0, PRINTED_BODY_CHARS)}… (${text.length} characters)`;
};

export async function startStandIns(print: (line: string) => void = (line) => console.log(line)) {
  const running: [string, RunningStandIn][] = [];
  for (const row of STAND_INS) running.push([row.platform, await row.start()]);
  // Set before the server starts: the platform adapters read their credentials from the environment.
  for (const [, stand] of running) Object.assign(process.env, stand.env);
  // The stand-ins are this machine's: no platform budget to spare, so a walkthrough may sync one
  // community again at once (a deployment spaces those polls; the variable still decides when set).
  process.env.MODERATION_SYNC_INTERVAL_SECONDS ??= '0';
  reloadConfig();
  const printed = new Map<string, number>();
  const printer = setInterval(() => {
    for (const [platform, stand] of running) {
      const calls = stand.calls();
      for (let i = printed.get(platform) ?? 0; i < calls.length; i++) {
        const call = calls[i];
        print(
          `${platform} stand-in received ${call.path ? `${call.method} ${call.path}` : call.method} ${printedBody(call.body)}`,
        );
      }
      printed.set(platform, calls.length);
    }
  }, PRINT_EVERY_MS);
  printer.unref();
  return {
    /** Writes the session file (local test secrets, mode 600) once the API's address is known. */
    announce(api: string): void {
      const session: StandInSession = {
        api,
        platforms: Object.fromEntries(running.map(([platform, stand]) => [platform, stand.sampleConfig])),
      };
      const file = sessionFile();
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(session, null, 2), { mode: 0o600 });
      process.on('exit', () => rmSync(file, { force: true }));
      print(
        `Stand-ins: ${running.map(([platform, stand]) => `${platform} at ${Object.entries(stand.env).find(([name]) => name.endsWith('_API_BASE'))?.[1]}`).join(', ')}`,
      );
      const withSamples = STAND_INS.filter((row) => row.sample !== null).map((row) => row.platform);
      print(`Send a sample: npm run stand-in -- <${withSamples.join('|')}> '<text>'`);
      for (const row of STAND_INS) if (row.usage) print(`${row.platform}: ${row.usage}`);
    },
    /** The calls `platform`'s stand-in recorded so far, as printed (tests assert them exactly). */
    recorded(platform: string) {
      return running.find(([p]) => p === platform)?.[1].calls() ?? [];
    },
    async stop(): Promise<void> {
      clearInterval(printer);
      await Promise.all(running.map(([, stand]) => stand.close()));
    },
  };
}

export function readSession(): StandInSession | undefined {
  const file = sessionFile();
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StandInSession) : undefined;
}

/**
 * Sends the sample for `text` where its row says: to the local API, or to the stand-in's control
 * route (a polled platform's new item). Answers the status and the body as text.
 */
export async function sendSample(
  row: StandInRow,
  text: string,
  session: StandInSession,
): Promise<{ status: number; text: string }> {
  const config = session.platforms[row.platform];
  if (!row.sample) throw new Error(`${row.platform} takes no sample: ${row.usage ?? 'nothing to send'}`);
  const request = row.sample(text, config);
  const base = request.to === 'api' ? session.api : config.control;
  const response = await fetch(`${base}${request.path}`, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, text: await response.text() };
}
