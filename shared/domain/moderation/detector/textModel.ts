/**
 * The text model a community's moderators teach: multinomial naive Bayes over hashed features (words,
 * word pairs, the shapes of links, numbers and addresses), counted per class. Small to store, quick to
 * teach (adding counts) and to judge (one pass over a message's features), and it learns from a
 * handful of examples, which is what a moderator gives. Pure: counts in, counts or evidence out; the
 * repository packs the counts into its items (shared/store/textModelCodec.ts).
 */
import type { Reading } from './reading';

export type Label = 'spam' | 'ham';

export interface TextModel {
  /** Feature bucket -> [count in spam, count in ham]. */
  counts: Map<number, [number, number]>;
  /** Examples taught, per class. */
  examples: [number, number];
  /** Features counted, per class. */
  features: [number, number];
}

export const emptyModel = (): TextModel => ({ counts: new Map(), examples: [0, 0], features: [0, 0] });

/** 2^20 buckets: collisions stay rare for the vocabulary of one community. */
const BUCKETS = 1 << 20;

/** FNV-1a, 32 bits: a stable hash of a feature name. */
function bucketOf(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % BUCKETS;
}

/** A word as a feature: numbers by their length (a phone number is any phone number), long words cut. */
const wordFeature = (w: string) => (/^\d+$/.test(w) ? `#${Math.min(w.length, 12)}` : w.slice(0, 24));

/** The distinct features of one message. */
export function featuresOf(reading: Reading): Set<number> {
  const words = reading.words.map(wordFeature);
  const names: string[] = [...words];
  for (let i = 1; i < words.length; i++) names.push(`${words[i - 1]} ${words[i]}`);
  for (const link of reading.links) names.push('~link', `~host:${link.host}`, `~tld:${link.host.split('.').pop()}`);
  if (reading.phoneNumbers) names.push('~phone');
  if (reading.walletAddresses) names.push('~address');
  if (reading.mentions.length) names.push(`~mentions:${Math.min(reading.mentions.length, 4)}`);
  if (reading.emojis) names.push(`~emojis:${Math.min(reading.emojis, 4)}`);
  if (reading.mixedWords) names.push('~mixed');
  return new Set(names.map(bucketOf));
}

const SPAM = 0;
const HAM = 1;

/** Adds examples to a model (in place) and returns it. */
export function teach(model: TextModel, examples: { reading: Reading; label: Label }[]): TextModel {
  for (const { reading, label } of examples) {
    const side = label === 'spam' ? SPAM : HAM;
    const features = featuresOf(reading);
    model.examples[side] += 1;
    model.features[side] += features.size;
    for (const f of features) {
      const counts = model.counts.get(f) ?? [0, 0];
      counts[side] += 1;
      model.counts.set(f, counts);
    }
  }
  return model;
}

/** Two models' counts together (the built-in starter knowledge and what the community taught). */
export function combine(a: TextModel, b: TextModel): TextModel {
  const counts = new Map(a.counts);
  for (const [f, [s, h]] of b.counts) {
    const mine = counts.get(f);
    counts.set(f, mine ? [mine[0] + s, mine[1] + h] : [s, h]);
  }
  return {
    counts,
    examples: [a.examples[0] + b.examples[0], a.examples[1] + b.examples[1]],
    features: [a.features[0] + b.features[0], a.features[1] + b.features[1]],
  };
}

/**
 * How much more likely the message is spam than ham by its words, in natural-log odds, averaged over
 * its known features and scaled back up by their count's square root: naive Bayes' raw sum grows with
 * the length of a message and overstates its certainty, which this damps. 0 until both classes have
 * been taught.
 */
export function modelEvidence(model: TextModel, reading: Reading): number {
  const [spamExamples, hamExamples] = model.examples;
  if (spamExamples === 0 || hamExamples === 0) return 0;
  const vocabulary = model.counts.size + 1;
  const spamTotal = model.features[SPAM] + vocabulary;
  const hamTotal = model.features[HAM] + vocabulary;
  let sum = 0;
  let known = 0;
  for (const f of featuresOf(reading)) {
    const counts = model.counts.get(f);
    if (!counts) continue;
    known += 1;
    sum += Math.log((counts[SPAM] + 1) / spamTotal) - Math.log((counts[HAM] + 1) / hamTotal);
  }
  return known === 0 ? 0 : (sum / known) * Math.sqrt(known);
}
