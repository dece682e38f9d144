/**
 * How a community's taught text model is packed into the bytes its items hold: a header, then bucket
 * deltas and counts as varints, deflated. Storage's own format, so it lives beside the repository
 * (textModelRepo.ts); the model itself is the domain's (shared/domain/moderation/detector/textModel.ts).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { TextModel } from '#shared/domain/moderation/detector/textModel';

/** Unsigned LEB128. */
function pushVarint(out: number[], value: number) {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** The counts as bytes: header, then bucket deltas and counts as varints, deflated. */
export function encodeModel(model: TextModel): Uint8Array {
  const out: number[] = [];
  for (const n of [...model.examples, ...model.features, model.counts.size]) pushVarint(out, n);
  let previous = 0;
  for (const bucket of [...model.counts.keys()].sort((x, y) => x - y)) {
    const [s, h] = model.counts.get(bucket) as [number, number];
    pushVarint(out, bucket - previous);
    pushVarint(out, s);
    pushVarint(out, h);
    previous = bucket;
  }
  return deflateRawSync(Uint8Array.from(out));
}

export function decodeModel(bytes: Uint8Array): TextModel {
  const data = inflateRawSync(bytes);
  let at = 0;
  const next = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = data[at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const examples: [number, number] = [next(), next()];
  const features: [number, number] = [next(), next()];
  const size = next();
  const counts = new Map<number, [number, number]>();
  let bucket = 0;
  for (let i = 0; i < size; i++) {
    bucket += next();
    counts.set(bucket, [next(), next()]);
  }
  return { counts, examples, features };
}
