import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, reservedKeyPath } from '#shared/json';

describe('nestsDeeperThan', () => {
  it('counts arrays and objects together, up to and past the limit', () => {
    expect(nestsDeeperThan('[{"a":[1]}]', 3)).toBe(false);
    expect(nestsDeeperThan('[{"a":[[1]]}]', 3)).toBe(true);
    expect(nestsDeeperThan('[][][][]', 1)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[[\\\\"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('answers for unterminated and huge input without recursion', () => {
    expect(nestsDeeperThan('['.repeat(1_000_000), 64)).toBe(true);
  });
});

describe('reservedKeyPath', () => {
  it('finds a __proto__ key at any depth, with its path', () => {
    expect(reservedKeyPath(JSON.parse('{"a":[{"b":1},{"__proto__":{}}]}'))).toEqual(['a', '1', '__proto__']);
    expect(reservedKeyPath(JSON.parse('{"__proto__":1}'))).toEqual(['__proto__']);
  });

  it('lets other prototype names and plain values through', () => {
    expect(reservedKeyPath(JSON.parse('{"constructor":{"prototype":1},"toString":"x"}'))).toBeUndefined();
    expect(reservedKeyPath([1, 'a', null])).toBeUndefined();
  });
});
