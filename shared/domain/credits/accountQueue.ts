/**
 * Money moves of one account, one at a time within this process. Every move of an account writes its
 * one wallet item under a version condition, so moves that overlap only cancel each other and go
 * again: with many clients of one account on one process (the local server, its in-process worker)
 * most attempts were lost to that race and a request waited out dozens of retries. Queued here, each
 * move reads the wallet after the one before it wrote, and its transaction goes through the first
 * time. Correctness never rests on this queue: the version condition still decides, and moves from
 * other processes (other Lambda instances) still meet it and retry.
 */
const tails = new Map<string, Promise<void>>();

/**
 * Runs `move` after every earlier one of `key` in this process; `waited` says another ran just before.
 * `idle` runs when a move ends with none queued behind it.
 */
export async function oneMoveAtATime<T>(
  key: string,
  move: (waited: boolean) => Promise<T>,
  idle?: () => void,
): Promise<T> {
  const before = tails.get(key);
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const tail = before ? before.then(() => done) : done;
  tails.set(key, tail);
  try {
    if (before) await before;
    return await move(before !== undefined);
  } finally {
    release();
    if (tails.get(key) === tail) {
      tails.delete(key);
      idle?.();
    }
  }
}
