/**
 * One planned Reddit call, sent: plain POSTs go to the route as a form; WARN posts the reply and then
 * distinguishes the comment Reddit created (its fullname is only known from the first answer); MUTE and
 * UNMUTE are our own mute, applied when the delivery runs so it lasts REDDIT_MUTE_SECONDS from then.
 */
import { now } from '#shared/adapters/ports';
import type { RedditApi } from './api';
import type { CallOutcome } from '#shared/platforms/result';
import type { PlannedCall } from '#shared/store/platformCallsRepo';
import { endRedditMute, putRedditMute } from './mutesRepo';
import type { RedditThing } from './listing';

const str = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
const formOf = (body: Record<string, unknown> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(body ?? {}).map(([k, v]) => [k, str(v)]));

/** The fullname of the comment `POST /api/comment` created: `json.data.things[0].data.name`. */
function createdFullname(result: unknown): string | undefined {
  const things = (result as { json?: { data?: { things?: { data?: { name?: unknown } }[] } } } | null)?.json?.data
    ?.things;
  const name = Array.isArray(things) ? things[0]?.data?.name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/**
 * A human moderator's approval is never reversed: a removal read as unapproved may meet one made while
 * its delivery waited, so such a removal reads the item again (`GET /api/info`) and leaves it if approved.
 */
async function approvedMeanwhile(api: RedditApi, fullname: string): Promise<string | undefined> {
  const info = await api.get('/api/info', { id: fullname });
  const children = info.ok
    ? (info.result as { data?: { children?: RedditThing[] } } | null)?.data?.children
    : undefined;
  const item = Array.isArray(children) ? children.find((c) => c?.data?.name === fullname) : undefined;
  const by = item?.data?.approved_by;
  return typeof by === 'string' && by ? by : undefined;
}

/**
 * The account's ban in the subreddit as its ban list shows it (`GET /r/{sub}/about/banned?user=`): the
 * note Reddit shows for it (reason and note together), or undefined when it is not banned.
 */
async function banOf(
  api: RedditApi,
  subreddit: string,
  name: string,
): Promise<Extract<CallOutcome, { ok: false }> | { ok: true; note: string | undefined }> {
  const list = await api.get(`/r/${subreddit}/about/banned`, { user: name });
  if (!list.ok) return list;
  const children = (list.result as { data?: { children?: { name?: unknown; note?: unknown }[] } } | null)?.data
    ?.children;
  const ban = (Array.isArray(children) ? children : []).find(
    (c) => typeof c?.name === 'string' && c.name.toLowerCase() === name.toLowerCase(),
  );
  return { ok: true, note: ban ? str(ban.note) : undefined };
}

export async function sendRedditCall(
  api: RedditApi,
  call: PlannedCall,
  context: { endsAt?: Date; waited?: boolean } = {},
): Promise<CallOutcome> {
  const { endsAt, waited } = context;
  const body = call.body ?? {};
  switch (call.method) {
    case 'REMOVE': {
      const approvedBy = waited ? await approvedMeanwhile(api, str(body.id)) : undefined;
      if (approvedBy) return { ok: true, result: { skipped: `approved by u/${approvedBy} while the removal waited` } };
      return api.post(call.route ?? '/api/remove', formOf(body));
    }
    case 'UNBAN': {
      const { subreddit, name, note } = { subreddit: str(body.subreddit), name: str(body.name), note: str(body.note) };
      const standing = await banOf(api, subreddit, name);
      if (!standing.ok) return standing;
      if (standing.note === undefined)
        return { ok: true, result: { skipped: `u/${name} is not banned in r/${subreddit}` } };
      if (!standing.note.includes(note))
        return {
          ok: false,
          status: 409,
          error: `u/${name}'s ban in r/${subreddit} is not the one the service placed (a moderator banned the account since): it stays.`,
        };
      return api.post(call.route ?? `/r/${subreddit}/api/unfriend`, { type: 'banned', name });
    }
    case 'MUTE': {
      const at = now();
      // The runner's end for a timed call (now + its length); computed the same way without one.
      const until = (endsAt ?? new Date(at.getTime() + Number(body.seconds) * 1000)).toISOString();
      // A mute whose time already ran out (a delivery delayed past it) is not applied.
      if (until <= at.toISOString()) return { ok: true, result: { muted: false } };
      await putRedditMute(str(body.community_id), { username: str(body.username), from: str(body.from), until });
      return { ok: true, result: { muted: true, until } };
    }
    case 'UNMUTE':
      await endRedditMute(str(body.community_id), str(body.username), now().toISOString());
      return { ok: true, result: { muted: false } };
    case 'WARN': {
      const comment = await api.post(call.route ?? '/api/comment', formOf(body));
      if (!comment.ok) return comment;
      const fullname = createdFullname(comment.result);
      if (!fullname) return { ok: true, result: { comment: null, distinguished: false } };
      // The warning is posted: a failed distinguish must not make the delivery post it again, so
      // it is reported in the result, not as a failure.
      const distinguished = await api.post('/api/distinguish', { id: fullname, how: 'yes' });
      return {
        ok: true,
        result: {
          comment: fullname,
          distinguished: distinguished.ok,
          ...(distinguished.ok ? {} : { distinguish_error: distinguished.error }),
        },
      };
    }
    default:
      return api.post(call.route ?? '/', formOf(body));
  }
}
