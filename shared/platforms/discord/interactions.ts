/**
 * Discord's interactions endpoint: every request is verified with Ed25519 over
 * `X-Signature-Timestamp` + the raw body against the application's public key (node:crypto), PING
 * answers PONG, and the slash commands bind a guild (/activate token:<t>) or name its alert channel
 * (/alerts). Writing AutoMod rules takes several calls, so they are queued, not made while Discord
 * waits (it wants an answer within 3 seconds).
 */
import { createPublicKey, verify } from 'node:crypto';
import type {
  APIApplicationCommandInteractionDataStringOption,
  APIChatInputApplicationCommandInteraction,
  APIInteraction,
  APIInteractionResponse,
} from 'discord-api-types/v10';
import { now } from '#shared/adapters/ports';
import { UnauthorizedError, ValidationError } from '#shared/domain/errors';
import { boundCommunity } from '#shared/store/bindingsRepo';
import { updatePlatformRecord } from '#shared/store/platformRepo';
import { UNPAID_ACTIVATION } from '#shared/platforms/unpaidActivation';
import { ADMINISTRATOR, MANAGE_GUILD } from './commands';
import type { ModerationCore } from '#shared/platforms/contract';
import { readOwnCredentials } from '#shared/platforms/ownCredentials';
import { DISCORD_CREDENTIALS } from './credentials';
import { requestAutomodSync } from './automod';

// Discord's enum values, as numbers (types only are imported from discord-api-types).
const INTERACTION = { ping: 1, command: 2 } as const;
const RESPONSE = { pong: 1, message: 4 } as const;
const EPHEMERAL = 1 << 6;

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo: node:crypto takes raw 32-byte keys this way. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** Older signed requests are refused, so a captured request cannot be replayed later. */
const MAX_SKEW_SECONDS = 5 * 60;

export function verifyDiscordSignature(
  publicKeyHex: string,
  signatureHex: string | undefined,
  timestamp: string | undefined,
  rawBody: string,
  nowMs: number,
): boolean {
  if (
    !signatureHex ||
    !timestamp ||
    !/^[0-9a-f]{128}$/i.test(signatureHex) ||
    !/^[0-9a-f]{64}$/i.test(publicKeyHex) ||
    !/^\d{1,12}$/.test(timestamp)
  )
    return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, Buffer.from(timestamp + rawBody), key, Buffer.from(signatureHex, 'hex'));
}

const reply = (content: string): APIInteractionResponse => ({
  type: RESPONSE.message,
  data: { content, flags: EPHEMERAL },
});

export const DISCORD_REPLIES = {
  not_in_guild: 'Use this command in the server you want moderated.',
  not_allowed: 'You need the Manage Server permission to do this.',
  invalid_token:
    'This activation token is not valid for a Discord community (or was used already: its owner can issue a fresh one).',
  activated: 'Moderation is on for this server: its AutoMod rules are being written now.',
  suspended: UNPAID_ACTIVATION.suspended(
    'This server',
    'its AutoMod rules are written switched off until the renewal is paid',
  ),
  expired: UNPAID_ACTIVATION.expired,
  not_activated: 'Run /activate with your activation token first.',
  alerts: 'Moderation alerts will be posted in this channel.',
  unknown: 'Unknown command.',
  taken:
    'This server already belongs to another moderation community. Remove it there (or delete that community) first.',
} as const;

export async function handleDiscordInteraction(
  headers: Record<string, string>,
  rawBody: string,
  core: ModerationCore,
): Promise<APIInteractionResponse> {
  const { publicKey } = await readOwnCredentials(DISCORD_CREDENTIALS);
  if (
    !publicKey ||
    !verifyDiscordSignature(
      publicKey,
      headers['x-signature-ed25519'],
      headers['x-signature-timestamp'],
      rawBody,
      now().getTime(),
    )
  ) {
    throw new UnauthorizedError('Invalid request signature.');
  }
  let interaction: APIInteraction;
  try {
    interaction = JSON.parse(rawBody) as APIInteraction;
  } catch {
    throw new ValidationError('The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
  if (typeof interaction !== 'object' || interaction === null)
    throw new ValidationError('The interaction must be a JSON object.', [
      { path: 'body', message: 'Expected an object' },
    ]);
  if (interaction.type === INTERACTION.ping) return { type: RESPONSE.pong };
  // Signed by Discord, so well-formed in practice; anything else still gets an answer, never a crash.
  if (
    interaction.type !== INTERACTION.command ||
    typeof (interaction as { data?: { name?: unknown } }).data?.name !== 'string'
  )
    return reply(DISCORD_REPLIES.unknown);
  return runCommand(core, interaction as APIChatInputApplicationCommandInteraction);
}

function mayManage(permissions: string | undefined): boolean {
  if (!permissions || !/^\d+$/.test(permissions)) return false;
  const bits = BigInt(permissions);
  return (bits & MANAGE_GUILD) !== 0n || (bits & ADMINISTRATOR) !== 0n;
}

async function runCommand(
  core: ModerationCore,
  interaction: APIChatInputApplicationCommandInteraction,
): Promise<APIInteractionResponse> {
  const guildId = interaction.guild_id;
  if (typeof guildId !== 'string' || !/^\d{1,20}$/.test(guildId)) return reply(DISCORD_REPLIES.not_in_guild);
  if (!mayManage(interaction.member?.permissions)) return reply(DISCORD_REPLIES.not_allowed);
  if (interaction.data.name === 'activate') {
    const option = (Array.isArray(interaction.data.options) ? interaction.data.options : []).find(
      (o) => o?.name === 'token',
    ) as APIApplicationCommandInteractionDataStringOption | undefined;
    const token = typeof option?.value === 'string' ? option.value : '';
    const community = await core.communityOfToken(token, 'discord');
    const use = { role: 'moderated', place: guildId } as const;
    // A token spent on another server reads like an unknown one.
    if (!community || !core.tokenMayDo(community, use)) return reply(DISCORD_REPLIES.invalid_token);
    // An expired community can never moderate again: it takes no server (one it held is free for others).
    if (community.billingState === 'expired') return reply(DISCORD_REPLIES.expired);
    const bound = await core.bindWithToken(community, token, use);
    if (bound !== 'bound') return reply(bound === 'taken' ? DISCORD_REPLIES.taken : DISCORD_REPLIES.invalid_token);
    if (!community.activatedAt) await core.markCommunityActivated(community, token);
    await requestAutomodSync(core, community.userId, community.id);
    // Bound either way; a suspended community says it does not moderate yet rather than that it does.
    return reply(community.billingState === 'suspended' ? DISCORD_REPLIES.suspended : DISCORD_REPLIES.activated);
  }
  if (interaction.data.name === 'alerts') {
    const binding = await boundCommunity('discord', guildId);
    if (!binding) return reply(DISCORD_REPLIES.not_activated);
    const channelId = interaction.channel?.id ?? interaction.channel_id;
    if (typeof channelId !== 'string') return reply(DISCORD_REPLIES.unknown);
    await updatePlatformRecord(binding.communityId, { discordAlertChannelId: channelId });
    await requestAutomodSync(core, binding.userId, binding.communityId);
    return reply(DISCORD_REPLIES.alerts);
  }
  return reply(DISCORD_REPLIES.unknown);
}
