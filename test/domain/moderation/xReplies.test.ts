import { describe, expect, it } from 'vitest';
import {
  afterPage,
  MAX_PAGES_PER_POLL,
  repliesToEvents,
  SINCE_ID_MAX_AGE_MS,
  SINCE_ID_MOVED_AGE_MS,
  searchableCursor,
  searchRequest,
  snowflakeAt,
} from '#shared/platforms/x/replies';

describe('searching replies', () => {
  it('asks for replies to the account, not by it, since the newest seen', () => {
    expect(searchRequest('acme_dao', { sinceId: '1860000000000000001' })).toEqual({
      method: 'GET',
      route: '/2/tweets/search/recent',
      query: {
        query: 'to:acme_dao is:reply -from:acme_dao',
        since_id: '1860000000000000001',
        max_results: '100',
        expansions: 'author_id',
        'tweet.fields': 'author_id,created_at,conversation_id',
      },
    });
  });

  it('goes on from next_token while paging', () => {
    expect(searchRequest('acme', { sinceId: '10', paging: { nextToken: 'tok', newestId: '99' } }).query).toMatchObject({
      since_id: '10',
      next_token: 'tok',
    });
  });

  it('refuses a user name that would change the query', () => {
    expect(() => searchRequest('acme OR from:someone', {})).toThrow();
    expect(() => searchRequest('', {})).toThrow();
  });
});

describe('the cursor', () => {
  it('a first search reads one page and starts from its newest post', () => {
    expect(afterPage({}, { meta: { newest_id: '50', oldest_id: '1', next_token: 'more' } }, 1)).toEqual({
      cursor: { sinceId: '50' },
      more: false,
    });
    expect(afterPage({}, { meta: { result_count: 0 } }, 1)).toEqual({ cursor: {}, more: false });
  });

  it('pages down to since_id, then moves since_id to the newest post of the first page', () => {
    const first = afterPage({ sinceId: '10' }, { meta: { newest_id: '90', next_token: 'p2' } }, 1);
    expect(first).toEqual({ cursor: { sinceId: '10', paging: { nextToken: 'p2', newestId: '90' } }, more: true });
    const last = afterPage(first.cursor, { meta: { newest_id: '40' } }, 2);
    expect(last).toEqual({ cursor: { sinceId: '90' }, more: false });
  });

  it('a search longer than one poll is carried on by the next, since_id unmoved', () => {
    const stop = afterPage(
      { sinceId: '10', paging: { nextToken: 'p5', newestId: '900' } },
      { meta: { newest_id: '300', next_token: 'p6' } },
      MAX_PAGES_PER_POLL,
    );
    expect(stop).toEqual({ cursor: { sinceId: '10', paging: { nextToken: 'p6', newestId: '900' } }, more: false });
  });

  it('nothing new keeps since_id', () => {
    expect(afterPage({ sinceId: '10' }, { meta: { result_count: 0 } }, 1)).toEqual({
      cursor: { sinceId: '10' },
      more: false,
    });
  });
});

describe("recent search's seven days", () => {
  const NOW = Date.parse('2026-11-24T12:00:00.000Z');
  const DAY = 24 * 60 * 60 * 1000;

  it('an id made from a time is the lowest id of that millisecond', () => {
    // X's epoch (2010-11-04T01:42:54.657Z) is id 0; ids count milliseconds above bit 22.
    expect(snowflakeAt(1288834974657)).toBe('0');
    expect(snowflakeAt(1288834974658)).toBe(String(1n << 22n));
  });

  it('a since_id inside the window is sent as it is', () => {
    const recent = { sinceId: snowflakeAt(NOW - DAY), paging: { nextToken: 'p2', newestId: snowflakeAt(NOW - 1000) } };
    expect(searchableCursor(recent, NOW)).toBe(recent);
    expect(searchableCursor({}, NOW)).toEqual({});
  });

  it('an older since_id (a quiet account) moves up inside the window, and its paging is dropped', () => {
    const stale = {
      sinceId: snowflakeAt(NOW - 8 * DAY),
      paging: { nextToken: 'old', newestId: snowflakeAt(NOW - 8 * DAY) },
    };
    expect(searchableCursor(stale, NOW)).toEqual({ sinceId: snowflakeAt(NOW - SINCE_ID_MOVED_AGE_MS) });
    expect(SINCE_ID_MOVED_AGE_MS).toBeLessThan(SINCE_ID_MAX_AGE_MS);
    expect(SINCE_ID_MAX_AGE_MS).toBeLessThan(7 * DAY);
  });

  it('a moved since_id is kept for a while, so a search paging from it goes on', () => {
    const paging = {
      sinceId: snowflakeAt(NOW - SINCE_ID_MOVED_AGE_MS),
      paging: { nextToken: 'p6', newestId: snowflakeAt(NOW - 1000) },
    };
    expect(searchableCursor(paging, NOW + 30 * 60 * 1000)).toBe(paging);
    expect(searchableCursor(paging, NOW + 60 * 60 * 1000)).toEqual({
      sinceId: snowflakeAt(NOW + 60 * 60 * 1000 - SINCE_ID_MOVED_AGE_MS),
    });
  });
});

describe('replies as chat events', () => {
  it('maps posts and their authors, oldest first, the post id as event id', () => {
    const events = repliesToEvents({
      data: [
        { id: '1860000000000000200', text: 'second', author_id: '7', created_at: '2026-11-24T08:00:02.000Z' },
        { id: '1860000000000000100', text: 'first', author_id: '8', created_at: '2026-11-24T08:00:01.000Z' },
      ],
      includes: {
        users: [
          { id: '7', username: 'seven' },
          { id: '8', username: 'eight' },
        ],
      },
    });
    expect(events).toEqual([
      {
        event_id: '1860000000000000100',
        type: 'message',
        user: { id: '8', username: 'eight' },
        text: 'first',
        sent_at: '2026-11-24T08:00:01.000Z',
      },
      {
        event_id: '1860000000000000200',
        type: 'message',
        user: { id: '7', username: 'seven' },
        text: 'second',
        sent_at: '2026-11-24T08:00:02.000Z',
      },
    ]);
  });

  it('an empty page is no events', () => {
    expect(repliesToEvents({ meta: { result_count: 0 } })).toEqual([]);
  });
});
