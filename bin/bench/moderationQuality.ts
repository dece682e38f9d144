/**
 * How well the detector judges real labelled messages, through the real HTTP routes: a JSONL file of
 * {id, source, text, label} (default ../shared/moderation/dev.jsonl, or the path after the suite's
 * name). Out of the box (check every message, as an established and as a new member), then taught
 * with one half (examples) and checked on the other. Precision, recall and false-positive rate per
 * source and overall; the time of a 100-message check and a 500-example teach; the detector's cost
 * per message in process. The messages are read at run time and never stored in the repository.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { judge, EMPTY_CONTEXT } from '#shared/domain/moderation/detector/detector';
import { readMessage } from '#shared/domain/moderation/detector/reading';
import { starterModel } from '#shared/domain/moderation/detector/starter';
import { emptyModel, teach } from '#shared/domain/moderation/detector/textModel';
import { encodeModel } from '#shared/store/textModelCodec';
import { DEFAULT_RULES } from '#shared/domain/moderation/rules';
import type { BenchContext, BenchSuite } from './harness';

interface Labelled {
  id: string;
  source: string;
  text: string;
  label: 'spam' | 'ham';
}

const BASE = '/integrations/moderation';

function fileArgument(): string {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const named = args.findIndex((a) => 'moderation-quality'.includes(a.toLowerCase()));
  return (named >= 0 ? args[named + 1] : undefined) ?? '../shared/moderation/dev.jsonl';
}

/** Half of the file by a hash of each id: stable from run to run. */
const inFirstHalf = (m: Labelled) => createHash('sha256').update(m.id).digest()[0] % 2 === 0;

function report(ctx: BenchContext, title: string, messages: Labelled[], flagged: boolean[]) {
  const bySource = new Map<string, [number, number, number, number]>();
  messages.forEach((m, i) => {
    for (const key of [m.source, 'all']) {
      const c = bySource.get(key) ?? [0, 0, 0, 0];
      c[(m.label === 'spam' ? 0 : 2) + (flagged[i] ? 0 : 1)] += 1;
      bySource.set(key, c);
    }
  });
  ctx.print(`  ${title}`);
  for (const [source, [tp, fn, fp, tn]] of [...bySource].sort(([a], [b]) =>
    a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b),
  ))
    ctx.print(
      `    ${source.padEnd(12)} precision ${(tp / Math.max(1, tp + fp)).toFixed(3)}  recall ${(tp / Math.max(1, tp + fn)).toFixed(3)}  FPR ${(fp / Math.max(1, fp + tn)).toFixed(4)}  (${tp + fn} spam, ${fp + tn} ham)`,
    );
}

async function checkAll(ctx: BenchContext, key: string, id: string, messages: Labelled[], isNew: boolean) {
  const flagged: boolean[] = [];
  const times: number[] = [];
  for (let i = 0; i < messages.length; i += 100) {
    const started = performance.now();
    const res = await ctx.call('POST', `${BASE}/communities/${id}/check`, {
      key,
      body: {
        messages: messages.slice(i, i + 100).map((m) => ({ text: m.text.slice(0, 4096), is_new_member: isNew })),
      },
    });
    times.push(performance.now() - started);
    for (const r of res.results) flagged.push(r.verdict === 'spam');
  }
  return { flagged, times };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const moderationQualityBench: BenchSuite = {
  name: 'moderation-quality',
  async run(ctx) {
    const file = fileArgument();
    if (!existsSync(file)) {
      ctx.print(`  ${file} not found: nothing to measure (give a labelled JSONL after the suite's name)`);
      return;
    }
    const all: Labelled[] = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    ctx.print(`  ${all.length} messages from ${file}`);
    const community = async () =>
      (
        await ctx.call('POST', `${BASE}/communities`, {
          key: ctx.proKey,
          body: { name: 'Quality', project_name: 'Bench', type: 'reddit' },
          expect: 201,
        })
      ).id as string;

    const fresh = await community();
    for (const isNew of [false, true]) {
      const { flagged, times } = await checkAll(ctx, ctx.proKey, fresh, all, isNew);
      report(ctx, `out of the box, ${isNew ? 'new' : 'established'} member`, all, flagged);
      if (!isNew) ctx.print(`    a check of 100 messages: median ${median(times).toFixed(0)} ms over ${times.length}`);
    }

    const taught = await community();
    const train = all.filter(inFirstHalf);
    const test = all.filter((m) => !inFirstHalf(m));
    const teachTimes: number[] = [];
    for (let i = 0; i < train.length; i += 500) {
      const started = performance.now();
      await ctx.call('POST', `${BASE}/communities/${taught}/examples`, {
        key: ctx.proKey,
        body: { examples: train.slice(i, i + 500).map((m) => ({ text: m.text.slice(0, 4096), label: m.label })) },
      });
      teachTimes.push(performance.now() - started);
    }
    ctx.print(`  taught ${train.length} examples: a 500-example call took median ${median(teachTimes).toFixed(0)} ms`);
    for (const isNew of [false, true]) {
      const { flagged } = await checkAll(ctx, ctx.proKey, taught, test, isNew);
      report(
        ctx,
        `taught with one half, checked on the other (${test.length}), ${isNew ? 'new' : 'established'} member`,
        test,
        flagged,
      );
    }

    // The detector alone, in process: cost per message and the stored model's size.
    const costs: number[] = [];
    const context = { ...EMPTY_CONTEXT, model: starterModel() };
    for (const m of all) {
      const started = performance.now();
      judge({ text: m.text, sentAt: 0, isNewMember: false, recent: [] }, DEFAULT_RULES, context);
      costs.push(performance.now() - started);
    }
    costs.sort((a, b) => a - b);
    ctx.print(
      `  detector in process: p50 ${costs[Math.floor(costs.length / 2)].toFixed(3)} ms, p99 ${costs[Math.floor(costs.length * 0.99)].toFixed(3)} ms per message`,
    );
    const big = emptyModel();
    for (let i = 0; i < 10_000; i++) {
      const m = all[i % all.length];
      teach(big, [{ reading: readMessage(`${m.text} ${i % 7 === 0 ? i : ''}`), label: m.label }]);
    }
    ctx.print(`  stored model after 10,000 examples: ${(encodeModel(big).length / 1024).toFixed(0)} KiB encoded`);
  },
};
