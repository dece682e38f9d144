/**
 * Samples for the platforms the service polls (Reddit, X). Nothing is pushed to the API there: a
 * sample is an item written into the running stand-in, which the service then reads on its minute
 * schedule (or at once on `POST /integrations/moderation/sync`). The stand-in runs inside `npm start`
 * and `npm run stand-in` is another process, so each polled stand-in gets a control route of its own,
 * `POST /_stand-in/items` with `{"text": "..."}`, on a separate server listening on 127.0.0.1 only:
 * the stand-in's platform routes stay exactly the documented ones, and the service never has it.
 */
import { startJsonServer, type StandInAnswer } from '#bin/standIns/httpStandIn';
import type { RedditStandIn } from '#bin/standIns/redditStandIn';
import type { startXStandIn } from '#bin/standIns/xStandIn';
import type { SampleRequest } from './samples';

type XStandIn = Awaited<ReturnType<typeof startXStandIn>>;

export const CONTROL_PATH = '/_stand-in/items';

export const SAMPLE_REDDIT = {
  subreddit: 'acme_sample',
  /** The operator's bot account (REDDIT_USERNAME). */
  bot: 'acme_mod_bot',
  /** A moderator of the sample subreddit: sends `/activate`, and has already invited the bot. */
  moderator: 'ada_mod',
  /** Writes every other sample as a new submission. */
  member: 'new_account',
} as const;

export const SAMPLE_X = {
  /** The X account the sample community moderates: signed in to X, so it approves an authorize link at once. */
  account: { id: '1700000000000000001', username: 'acme_sample' },
  /** Replies to the account's conversation. */
  replier: { id: '1700000000000000002', username: 'new_replier' },
} as const;

/** A sample for a polled platform: the text, to the stand-in's control route. */
export const controlSample = (text: string): SampleRequest => ({
  to: 'stand-in',
  path: CONTROL_PATH,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ text }),
});

/** The control route: `POST /_stand-in/items` hands the text to `write`, anything else is a 404. */
export function startControlRoute(write: (text: string) => StandInAnswer) {
  return startJsonServer((req) => {
    if (req.method !== 'POST' || req.path !== CONTROL_PATH) return { status: 404, body: { error: 'not_found' } };
    const text = typeof req.body?.text === 'string' ? req.body.text.trim() : '';
    if (!text) return { status: 400, body: { error: 'a non-empty "text" is required' } };
    return write(text);
  });
}

const READ = 'read on the minute schedule, or at once: POST /integrations/moderation/sync';

/**
 * `/activate <token> [r/<subreddit>]`: the moderator's private message to the bot (the sample
 * subreddit is named when the text names none); anything else: a new submission by a new account.
 */
export function writeRedditSample(stand: RedditStandIn, text: string): StandInAnswer {
  if (text.startsWith('/activate')) {
    const body = /\sr\/\w/.test(text) ? text : `${text} r/${SAMPLE_REDDIT.subreddit}`;
    const message = stand.privateMessage(SAMPLE_REDDIT.moderator, body);
    return {
      status: 201,
      body: { private_message: message, from: SAMPLE_REDDIT.moderator, to: SAMPLE_REDDIT.bot, body, note: READ },
    };
  }
  const submission = stand.post(SAMPLE_REDDIT.subreddit, SAMPLE_REDDIT.member, text);
  return {
    status: 201,
    body: { submission, subreddit: SAMPLE_REDDIT.subreddit, author: SAMPLE_REDDIT.member, title: text, note: READ },
  };
}

/** A reply to the sample account's conversation; X has no activation message (its authorize link is opened). */
export function writeXSample(stand: XStandIn, text: string): StandInAnswer {
  if (text.startsWith('/activate'))
    return {
      status: 400,
      body: {
        error: `X has no activation message: open the community's authorize_url (curl -sL), signed in as @${SAMPLE_X.account.username}`,
      },
    };
  const reply = stand.reply(SAMPLE_X.account.username, SAMPLE_X.replier, text);
  return {
    status: 201,
    body: { reply, to: SAMPLE_X.account.username, author: SAMPLE_X.replier.username, text, note: READ },
  };
}
