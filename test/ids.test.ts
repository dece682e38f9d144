import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/ids';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STOPPED = Date.UTC(2026, 10, 25, 6, 30);

describe('uuidv7', () => {
  it('ids made with one millisecond sort in the order they were made', () => {
    const ids = Array.from({ length: 2_048 }, () => uuidv7(STOPPED));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(V7);
  });

  it('keep their order when ids without a time are made between them', () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push(uuidv7(STOPPED));
      uuidv7();
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('a later millisecond sorts after every id of an earlier one, and carries its time', () => {
    const earlier = Array.from({ length: 50 }, () => uuidv7(STOPPED));
    const later = uuidv7(STOPPED + 1);
    expect(earlier.every((id) => id < later)).toBe(true);
    expect(Number.parseInt(later.replace(/-/g, '').slice(0, 12), 16)).toBe(STOPPED + 1);
    expect(Math.abs(Number.parseInt(uuidv7().replace(/-/g, '').slice(0, 12), 16) - Date.now())).toBeLessThan(1000);
  });

  it('a clock that goes back, or a millisecond past its counter, still gives valid distinct ids', () => {
    const ids = [
      ...Array.from({ length: 5_000 }, () => uuidv7(STOPPED)),
      uuidv7(STOPPED - 1),
      uuidv7(STOPPED - 1),
      uuidv7(STOPPED),
      uuidv7(),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(V7);
  });
});
