/**
 * What the console says about each platform a community can be on: its name, how a community is
 * connected there (the guide's activation steps (docs/guide), with the community's own token and links filled in),
 * and whether its rules can turn a captcha on. Plain data, so test/http/consolePlatforms.test.ts can
 * hold it to the platform modules (a captcha needs a platform that tells the bot about joins).
 */
export interface ConnectLinks {
  token: string;
  install_url: string | null;
  authorize_url: string | null;
}

/** One step: text, optionally a command to type (shown as code) or a link to open. */
export interface Step {
  text: string;
  command?: string;
  link?: { href: string; label: string };
}

export interface PlatformFacts {
  label: string;
  captcha: boolean;
  connect: (c: ConnectLinks) => Step[];
}

export const PLATFORM_FACTS: Record<string, PlatformFacts> = {
  telegram: {
    label: 'Telegram',
    captcha: true,
    connect: ({ token }) => [
      { text: "Add the operator's bot to your group as an administrator (delete messages, ban users)." },
      {
        text: 'Alerts elsewhere (optional, first): send this in the chat that should receive them (a private chat with the bot or a moderators’ group):',
        command: `/alerts ${token}`,
      },
      { text: 'Then, as an administrator, send this in the group:', command: `/activate ${token}` },
    ],
  },
  discord: {
    label: 'Discord',
    captcha: false,
    connect: ({ token, install_url }) => [
      install_url
        ? { text: 'Invite the bot and pick your server:', link: { href: install_url, label: 'Add the bot to Discord' } }
        : { text: 'This deployment has no Discord application configured (no invite link): ask its operator.' },
      { text: 'Then a member with Manage Server runs:', command: `/activate token:${token}` },
      { text: '/alerts in a channel makes it the alert channel.' },
    ],
  },
  reddit: {
    label: 'Reddit',
    captcha: false,
    connect: ({ token }) => [
      {
        text: "In your subreddit's mod tools, invite the operator's bot as a moderator with Manage Posts & Comments, Manage Users and Manage Mod Mail.",
      },
      {
        text: 'Then, as a moderator of the subreddit, send the bot a private message (your subreddit in place of r/yoursub):',
        command: `/activate ${token} r/yoursub`,
      },
      { text: 'Within a minute the bot accepts the invitation and answers your message.' },
    ],
  },
  x: {
    label: 'X',
    captcha: false,
    connect: ({ authorize_url }) => [
      authorize_url
        ? {
            text: 'Open this link while signed in to the X account to moderate (usable once, within an hour; reload for a new one):',
            link: { href: authorize_url, label: 'Authorize on X' },
          }
        : { text: 'This deployment has no X app configured (no authorization link): ask its operator.' },
    ],
  },
  crisp: {
    label: 'Crisp',
    captcha: true,
    connect: ({ token }) => [
      { text: "Install the operator's plugin on the website (Crisp dashboard → Plugins)." },
      { text: 'Then, as an operator of the website, send this in any conversation:', command: `/activate ${token}` },
    ],
  },
};

export const platformFacts = (type: string): PlatformFacts =>
  Object.hasOwn(PLATFORM_FACTS, type)
    ? PLATFORM_FACTS[type]
    : {
        label: type,
        captcha: false,
        connect: () => [{ text: 'See docs/guide in the repository for how to connect it.' }],
      };
