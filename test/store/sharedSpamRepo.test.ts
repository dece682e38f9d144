import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/ids';
import {
  confirmSharedSpam,
  confirmSpammer,
  sharedSpamOwners,
  spammerOwners,
  withdrawSpammer,
} from '#shared/store/sharedSpamRepo';

describe('spam confirmed across the deployment', () => {
  it('keeps each owner once, at most five, and an undone ban withdraws only its owner', async () => {
    const account = uuidv7();
    await confirmSpammer('telegram', account, 'owner-a', Date.now());
    await confirmSpammer('telegram', account, 'owner-a', Date.now());
    await confirmSpammer('telegram', account, 'owner-b', Date.now());
    expect((await spammerOwners('telegram', [account])).get(account)).toEqual(new Set(['owner-a', 'owner-b']));
    await withdrawSpammer('telegram', account, 'owner-a');
    expect((await spammerOwners('telegram', [account])).get(account)).toEqual(new Set(['owner-b']));
    // Another platform's account of the same id is another account.
    expect((await spammerOwners('reddit', [account])).has(account)).toBe(false);
    await withdrawSpammer('x', account, 'owner-a');
    expect((await spammerOwners('x', [account])).has(account)).toBe(false);

    const fingerprint = uuidv7();
    for (const owner of ['o1', 'o2', 'o3', 'o4', 'o5', 'o6']) await confirmSharedSpam(fingerprint, owner, Date.now());
    expect((await sharedSpamOwners([fingerprint])).get(fingerprint)?.size).toBe(5);
  });
});
