import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where the running local server leaves its DynamoDB endpoint, so admin commands can share its database. */
const ENDPOINT_FILE = resolve(process.cwd(), '.data', 'endpoint');

export function recordLocalEndpoint(endpoint: string): void {
  writeFileSync(ENDPOINT_FILE, endpoint);
  process.on('exit', () => rmSync(ENDPOINT_FILE, { force: true }));
}

/** The endpoint the running local server recorded, or '' when none is recorded. */
export const recordedLocalEndpoint = (): string =>
  existsSync(ENDPOINT_FILE) ? readFileSync(ENDPOINT_FILE, 'utf8').trim() : '';
