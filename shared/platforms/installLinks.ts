import type { CommunityType } from './names';
import type { PlatformSettings } from './contract';

/** The invite's permissions: ban, manage server (AutoMod), audit log, manage messages, moderate members. */
const DISCORD_BOT_PERMISSIONS = (1n << 2n) | (1n << 5n) | (1n << 7n) | (1n << 13n) | (1n << 40n);

/**
 * The OAuth2 invite that adds the operator's bot with the commands and the permissions its actions
 * need. The application id is public (it is in every invite link), so it is configuration
 * (DISCORD_APPLICATION_ID) even in AWS, where the bot token and public key stay in the secret.
 */
function discordInvite(settings: PlatformSettings): string | null {
  const appId = settings.DISCORD_APPLICATION_ID;
  if (!appId) return null;
  return `https://discord.com/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'bot applications.commands', permissions: String(DISCORD_BOT_PERMISSIONS) })}`;
}

/**
 * A community record's `install_url` by type: an invite adding the operator's bot, where the platform
 * has one. A table of its own rather than a member of each platform module, so that showing a
 * community (in an API answer or a webhook event) does not load every platform's adapter.
 */
const INSTALL_LINKS: Readonly<Record<CommunityType, ((settings: PlatformSettings) => string | null) | null>> = {
  telegram: null,
  discord: discordInvite,
  reddit: null,
  x: null,
  crisp: null,
};

export const installLinkFor = (type: CommunityType, settings: PlatformSettings): string | null =>
  INSTALL_LINKS[type]?.(settings) ?? null;
