/**
 * `npm run stand-in -- <platform> '<text>'`: sends a sample to the local server started with
 * `npm start -- --stand-ins`, as the platform would (a Telegram group message from the sample group,
 * a Discord slash command signed with the session's local key), or, for Reddit and X, which the
 * service polls, writes it into the stand-in (a new submission, a reply) for the next poll to read.
 * It prints the answer; what the service then does on the platform shows in the server's terminal,
 * as the stand-in records it.
 */
import { readSession, sendSample } from './standIns/session';
import { STAND_INS, standInFor } from './standIns/table';

const [platform = '', ...words] = process.argv.slice(2);
const text = words.join(' ');
const row = standInFor(platform);
const session = readSession();
if (!row?.sample || !text) {
  if (row && !row.sample) console.error(`${row.platform} takes no sample: ${row.usage ?? 'nothing to send'}`);
  console.error(
    `Usage: npm run stand-in -- <${STAND_INS.filter((r) => r.sample !== null)
      .map((r) => r.platform)
      .join('|')}> '<text>'`,
  );
  console.error("  telegram '/activate <activation_token>'   a command, from the sample group's administrator");
  console.error("  telegram 'Claim your airdrop at acme-drop.xyz'   a message, from a new member");
  console.error("  discord '/activate token:<activation_token>'   a slash command, signed with the session's key");
  console.error("  crisp '/activate <activation_token>'   from the website's operator; anything else from a visitor");
  console.error("  reddit '/activate <activation_token>'   the moderator's private message to the bot (r/acme_sample)");
  console.error("  reddit 'Claim your airdrop at acme-drop.xyz'   a new submission in r/acme_sample");
  console.error(
    "  x 'Claim your airdrop at acme-drop.xyz'   a reply to @acme_sample (activate X by opening authorize_url)",
  );
  process.exit(2);
}
if (!session?.platforms[row.platform]) {
  console.error('No stand-in session: start the server with `npm start -- --stand-ins` first.');
  process.exit(1);
}
const answer = await sendSample(row, text, session);
console.log(`${answer.status} ${answer.text}`);
if (answer.status >= 400) process.exitCode = 1;
