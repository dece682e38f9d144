/**
 * `npm run stand-in -- <platform> '<text>'`: sends a sample to the local server started with
 * `npm start -- --stand-ins`, as the platform would (a Telegram group message from the sample group,
 * a Discord slash command signed with the session's local key), and prints the server's answer. What
 * the service then does on the platform shows in the server's terminal, as the stand-in records it.
 */
import { readSession } from './standIns/session';
import { STAND_INS, standInFor } from './standIns/table';

const [platform = '', ...words] = process.argv.slice(2);
const text = words.join(' ');
const row = standInFor(platform);
const session = readSession();
if (!row || !text) {
  console.error(`Usage: npm run stand-in -- <${STAND_INS.map((r) => r.platform).join('|')}> '<text>'`);
  console.error("  telegram '/activate <activation_token>'   a command, from the sample group's administrator");
  console.error("  telegram 'Claim your airdrop at acme-drop.xyz'   a message, from a new member");
  console.error("  discord '/activate token:<activation_token>'   a slash command, signed with the session's key");
  process.exit(2);
}
if (!session?.platforms[row.platform]) {
  console.error('No stand-in session: start the server with `npm start -- --stand-ins` first.');
  process.exit(1);
}
const request = row.sample(text, session.platforms[row.platform]);
const response = await fetch(`${session.api}${request.path}`, {
  method: 'POST',
  headers: request.headers,
  body: request.body,
});
console.log(`${response.status} ${await response.text()}`);
if (!response.ok) process.exitCode = 1;
