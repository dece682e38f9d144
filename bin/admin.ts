/**
 * `npm run admin -- <command>`: operator tasks against the local database (default) or a deployed
 * table (TABLE_NAME and AWS credentials set). Each command is one entry of the table below.
 */
import { connectAdmin } from './admin/connect';
import { createUserCommand, grantCreditsCommand } from './admin/accounts';
import { seedCommand } from './admin/seed';
import { importCommand } from './admin/import';
import { renewalsCommand } from './admin/renewals';
import { discordCommandsCommand, telegramWebhookCommand } from './admin/platforms';
import { phishingCommand } from './admin/phishing';
import { UsageError } from './admin/options';

interface Command {
  usage: string;
  run: (args: string[]) => () => Promise<void>;
  /** Reads or writes the table: connected to it (a local DynamoDB started if need be) and said which. */
  usesDatabase: boolean;
}

const COMMANDS: Record<string, Command> = {
  'create-user': {
    usage: 'create-user --email E [--tier developer|pro] [--credits N]',
    run: createUserCommand,
    usesDatabase: true,
  },
  'grant-credits': { usage: 'grant-credits --email E --credits N', run: grantCreditsCommand, usesDatabase: true },
  seed: { usage: 'seed [--scale 1] [--seed N]', run: seedCommand, usesDatabase: true },
  import: { usage: 'import --file F.jsonl', run: importCommand, usesDatabase: true },
  renewals: { usage: 'renewals [--at ISO_TIMESTAMP]', run: renewalsCommand, usesDatabase: true },
  // The platforms' set-up calls Telegram and Discord with the operator's credentials, nothing of ours.
  'telegram-webhook': {
    usage: 'telegram-webhook --url <ApiBaseUrl>',
    run: telegramWebhookCommand,
    usesDatabase: false,
  },
  'discord-commands': { usage: 'discord-commands', run: discordCommandsCommand, usesDatabase: false },
  phishing: { usage: 'phishing refresh [--url URL]', run: phishingCommand, usesDatabase: true },
};

const [name, ...args] = process.argv.slice(2);
const command = name && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
if (!command) {
  console.error(
    `Usage: npm run admin -- <command>\n${Object.values(COMMANDS)
      .map((c) => `  ${c.usage}`)
      .join('\n')}`,
  );
  process.exit(2);
}

// Every flag is checked before the database (for a command that uses it) is touched, so a bad one writes nothing.
let step: () => Promise<void>;
try {
  step = command.run(args);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`Error: ${err.message}\nUsage: npm run admin -- ${command.usage}`);
  process.exit(1);
}

const connection = command.usesDatabase ? await connectAdmin() : undefined;
if (connection) console.error(`Using the ${connection.target}.`);
try {
  await step();
} catch (err) {
  console.error(`Error: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await connection?.close();
}
process.exit();
