import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddb } from '#shared/store/client';
import { startTestApi } from '#test/support/api';

// Two starts with one quote token: both read it unused, one uses it and is refused by the queue (so it gives the
// token back), and the other's write fails on the token in between. The store is the real one; its calls are
// only held back to force that order.
const api = await startTestApi();
afterEach(() => vi.restoreAllMocks());

const JOB = {
  preset: 'full_pipeline',
  input_assets: { companies: [{ company_name: 'Nebula Labs', domain: 'nebulalabs.io' }] },
};
const CSV = 'Company,Website\nNebula Labs,https://nebulalabs.io\nQuiet Protocol,quietprotocol.xyz\n';
const GOAL = 'Find the work emails of the team at these companies';

type Sent = { constructor: { name: string }; input: any };
const onQuote = (prefix: string, command: Sent) => {
  const { input } = command;
  if (String(input.Key?.pk ?? '').startsWith(prefix)) return true;
  return (input.TransactItems ?? []).some((t: any) =>
    String((t.Update ?? t.Put ?? t.Delete ?? t.ConditionCheck)?.Key?.pk ?? '').startsWith(prefix),
  );
};

/** Holds the store calls on the quote (whose key starts with `prefix`) and the queue send in the racing order. */
function forceRace(prefix: string) {
  const client = ddb();
  const send = client.send.bind(client) as (c: Sent) => Promise<unknown>;
  let reads = 0;
  let writes = 0;
  let bothRead!: () => void;
  const bothReadP = new Promise<void>((r) => (bothRead = r));
  let loserFailed!: () => void;
  const loserFailedP = new Promise<void>((r) => (loserFailed = r));
  let givenBack!: () => void;
  const givenBackP = new Promise<void>((r) => (givenBack = r));
  vi.spyOn(client, 'send').mockImplementation((async (command: Sent) => {
    if (!onQuote(prefix, command)) return send(command);
    const kind = command.constructor.name;
    if (kind === 'GetCommand') {
      reads += 1;
      if (reads === 2) bothRead();
      // The loser reads the token again (to say why it failed) only after the winner gave it back.
      if (reads > 2) await givenBackP;
      return send(command);
    }
    if (kind === 'TransactWriteCommand') {
      writes += 1;
      // The winner writes once both have read the token unused.
      if (writes === 1) {
        await bothReadP;
        return send(command);
      }
      try {
        return await send(command);
      } catch (err) {
        loserFailed();
        throw err;
      }
    }
    if (kind === 'UpdateCommand' && String(command.input.UpdateExpression).includes('REMOVE')) {
      const out = await send(command);
      givenBack();
      return out;
    }
    return send(command);
  }) as never);
  vi.spyOn(api.ports.queue, 'send').mockImplementationOnce(async () => {
    await loserFailedP;
    throw new Error('SQS refused 1 of 1 messages');
  });
}

describe('a start that loses the token to a start that then gives it back', () => {
  it('POST /bd/jobs: the loser is told the token was in use (409), not that it expired, and the token works again', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const quote = (await api.call('POST', '/bd/jobs/quote', { key, body: JOB })).body;
    const body = { ...JOB, quote_token: quote.quote_token };
    forceRace('QUOTE#');
    const answers = await Promise.all([1, 2].map(() => api.call('POST', '/bd/jobs', { key, body })));
    vi.restoreAllMocks();
    const codes = answers.map((a) => a.body.error?.code).sort();
    expect(codes).toEqual(['quote_token_used', 'service_unavailable']);
    const again = await api.call('POST', '/bd/jobs', { key, body });
    expect(again.status, again.text).toBe(202);
    await api.ports.queue.drained();
  });

  it('POST /growth/run: the same', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const resolved = await api.call('POST', '/growth/resolve', { key, body: { goal_text: GOAL, input_text: CSV } });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolved.body.goal_plan } })).body;
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };
    forceRace('QUOTE#');
    const answers = await Promise.all([1, 2].map(() => api.call('POST', '/growth/run', { key, body })));
    vi.restoreAllMocks();
    const codes = answers.map((a) => a.body.error?.code).sort();
    expect(codes).toEqual(['quote_token_used', 'service_unavailable']);
    const again = await api.call('POST', '/growth/run', { key, body });
    expect(again.status, again.text).toBe(202);
    await api.ports.queue.drained();
  });
});
