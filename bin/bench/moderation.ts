import { fingerprintOf, type MessageToClassify } from '#shared/domain/moderation/classifier';
import { EMPTY_CONTEXT, judge } from '#shared/domain/moderation/detector/detector';
import { starterModel } from '#shared/domain/moderation/detector/starter';
import { DEFAULT_RULES } from '#shared/domain/moderation/rules';
import { emptyMemberState, moderateEvent, policyOf, type ChatEvent } from '#shared/domain/moderation/engine';
import type { BenchSuite } from './harness';

const BATCH = 100;
const MEMBERS = 20;
const BASE = '/integrations/moderation';

/** A realistic mix: mostly ordinary chat, some links from old members, one scam in ten. */
const TEXTS = [
  'gm everyone, what is the plan for the next community call?',
  'The docs explain it: https://docs.example.org/staking/withdrawals',
  'what do you think about the price after the listing?',
  'Hello sir, DM me for support with your withdrawal',
  'thanks, that fixed it',
  'Is the bridge down for anyone else? My transfer has been pending for 20 minutes',
  'WHY IS NOBODY ANSWERING MY QUESTION',
  'Claim your airdrop now at claim-drop.xyz before it ends',
  '@alice @bob can you review the governance proposal?',
  'Reminder: never share your seed phrase with anyone.',
];

let sequence = 0;
function batchOfEvents(): ChatEvent[] {
  const start = Date.now();
  return Array.from({ length: BATCH }, (_, i) => {
    const n = sequence++;
    return {
      event_id: `bench-${n}`,
      type: 'message' as const,
      user: { id: `member-${n % MEMBERS}`, username: `member${n % MEMBERS}`, joined_at: '2025-01-01T00:00:00.000Z' },
      text: TEXTS[n % TEXTS.length],
      sent_at: new Date(start + i * 700).toISOString(),
    };
  });
}

function perMessageMicros(count: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < 2_000; i++) fn(i); // warm up the JIT and the regex caches
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / 1_000 / count;
}

/** Events endpoint throughput in batches of 100, and the pure cost of judging one message. */
export const moderationBench: BenchSuite = {
  name: 'Moderation (events, status, classifier)',
  async run({ call, measure, print }) {
    // Every community waits to be bound: a custom bridge binds it with an activation event, or its events are not moderated.
    const bind = (c: { id: string; activation_token: string }) =>
      call('POST', `${BASE}/communities/${c.id}/events`, {
        body: {
          events: [
            {
              event_id: 'bench-activation',
              type: 'activation',
              user: { id: 'bench' },
              token: c.activation_token,
              sent_at: new Date().toISOString(),
            },
          ],
        },
      });
    const community = await call('POST', `${BASE}/communities`, {
      body: { name: 'Bench', project_name: 'Bench', type: 'reddit' },
      expect: 201,
    });
    await bind(community);
    const eventsPath = `${BASE}/communities/${community.id}/events`;

    const sent: ChatEvent[][] = [];
    const fresh = await measure(`POST events (batch of ${BATCH}, ${MEMBERS} members)`, 30, async () => {
      const events = batchOfEvents();
      sent.push(events);
      await call('POST', eventsPath, { body: { events } });
    });
    print(
      `  -> ${Math.round((BATCH * 1000) / fresh.p50)} events/s at p50, ${(fresh.ddbPerCall / BATCH).toFixed(2)} DynamoDB requests per event`,
    );
    const replay = await measure(`POST events (re-delivered batch of ${BATCH})`, 30, (i) =>
      call('POST', eventsPath, { body: { events: sent[i] } }),
    );
    print(`  -> ${Math.round((BATCH * 1000) / replay.p50)} re-delivered events/s at p50`);

    const streams = 4;
    const started = performance.now();
    const others = await Promise.all(
      Array.from({ length: streams }, (_, i) =>
        call('POST', `${BASE}/communities`, {
          body: { name: `Bench ${i}`, project_name: 'Bench', type: 'x' },
          expect: 201,
        }),
      ),
    );
    await Promise.all(others.map(bind));
    const provisioned = performance.now();
    await Promise.all(
      others.map(async (c) => {
        for (let i = 0; i < 10; i++)
          await call('POST', `${BASE}/communities/${c.id}/events`, { body: { events: batchOfEvents() } });
      }),
    );
    const seconds = (performance.now() - provisioned) / 1000;
    print(
      `${`${streams} communities x 10 batches in parallel`.padEnd(48)} ${Math.round((streams * 10 * BATCH) / seconds)} events/s (provisioning and binding ${(provisioned - started).toFixed(0)} ms)`,
    );

    await measure('GET /status (25 audit entries)', 100, () =>
      call('GET', `${BASE}/status?community_id=${community.id}`),
    );
    await measure('POST /sync', 100, () => call('POST', `${BASE}/sync`, { body: { community_id: community.id } }));

    // What the engine judges with: the rules and the starter model (the per-community parts are read per batch).
    const context = { ...EMPTY_CONTEXT, model: starterModel() };
    const corpus: MessageToClassify[] = TEXTS.map((text, i) => ({
      text,
      sentAt: 1_795_000_000_000 + i,
      isNewMember: i % 2 === 0,
      recent: Array.from({ length: 8 }, (_, k) => ({
        at: 1_795_000_000_000 - k * 900,
        fingerprint: fingerprintOf(TEXTS[(i + k) % TEXTS.length]),
      })),
    }));
    print(
      `${'detector judge (pure, per message)'.padEnd(48)} ${perMessageMicros(200_000, (i) => judge(corpus[i % corpus.length], DEFAULT_RULES, context)).toFixed(2)} µs`,
    );
    const policy = policyOf({
      billingState: 'active',
      activatedAt: 'x',
      whitelistedUsernames: ['founder'],
      whitelistedRoleIds: [],
      shouldSendWelcomeMessages: true,
      welcomeMessage: null,
      alertTemplate: null,
    });
    const events = batchOfEvents();
    const state = emptyMemberState();
    print(
      `${'moderateEvent (engine core, per message)'.padEnd(48)} ${perMessageMicros(200_000, (i) => moderateEvent(policy, state, events[i % events.length])).toFixed(2)} µs`,
    );
  },
};
