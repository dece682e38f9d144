/** The application's slash commands (registered by `npm run admin -- discord-commands`). */
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord-api-types/v10';

/** MANAGE_GUILD (1 << 5): only members who may manage the server see and use the commands by default. */
export const MANAGE_GUILD = 1n << 5n;
export const ADMINISTRATOR = 1n << 3n;

export const DISCORD_COMMANDS: RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
  {
    name: 'activate',
    description: 'Turn on moderation in this server with your activation token',
    // 3: STRING option (ApplicationCommandOptionType.String)
    options: [{ type: 3, name: 'token', description: 'The activation_token of your community', required: true }],
    default_member_permissions: String(MANAGE_GUILD),
    contexts: [0],
  },
  {
    name: 'alerts',
    description: 'Post moderation alerts in this channel',
    default_member_permissions: String(MANAGE_GUILD),
    contexts: [0],
  },
];
