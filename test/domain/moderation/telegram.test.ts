import { describe, expect, it } from 'vitest';
import { toChatEvents } from '#shared/platforms/telegram/updates';

describe('toChatEvents (Telegram Update -> chat events)', () => {
  it("maps a text message, with the update id as the event id and Telegram's unix time as sent_at", () => {
    expect(
      toChatEvents({
        update_id: 42,
        message: { message_id: 1, date: 1_795_000_000, from: { id: 7, username: 'ada' }, text: 'hello' },
      }),
    ).toEqual([
      {
        event_id: 'tg-42',
        type: 'message',
        user: { id: '7', username: 'ada' },
        text: 'hello',
        sent_at: '2026-11-18T11:06:40.000Z',
      },
    ]);
  });

  it('maps each new chat member to a join, and a captioned photo to a message', () => {
    const events = toChatEvents({
      update_id: 43,
      message: {
        message_id: 2,
        date: 1_795_000_000,
        from: { id: 8 },
        caption: 'look',
        new_chat_members: [{ id: 8, username: 'x' }, { id: 9 }],
      },
    });
    expect(events.map((e) => [e.event_id, e.type, e.user.id])).toEqual([
      ['tg-43-join-8', 'member_join', '8'],
      ['tg-43-join-9', 'member_join', '9'],
      ['tg-43', 'message', '8'],
    ]);
  });

  it('ignores updates without a message (edits, callbacks, channel posts)', () => {
    expect(toChatEvents({ update_id: 44 })).toEqual([]);
  });
});
