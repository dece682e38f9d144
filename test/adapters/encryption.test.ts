/**
 * The envelope: a prepared seal makes its data key when prepared (the master key's call, KMS in AWS),
 * so the value known later is sealed without it; it opens like any sealed value, for its context only.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EnvelopeEncryption, LocalKeyWrapper } from '#shared/adapters/encryption';

class CountingWrapper extends LocalKeyWrapper {
  dataKeys = 0;
  override async newDataKey(context: string) {
    this.dataKeys += 1;
    return super.newDataKey(context);
  }
}

describe('a prepared seal', () => {
  it('asks the master key when prepared, not when sealing; the value opens for its context only', async () => {
    const wrapper = new CountingWrapper(randomBytes(32));
    const envelope = new EnvelopeEncryption(wrapper);
    const prepared = await envelope.prepareSeal('x-tokens:c1');
    expect(wrapper.dataKeys).toBe(1);
    const sealed = prepared.seal('{"access_token":"a"}');
    expect(wrapper.dataKeys).toBe(1);
    expect(await envelope.open(sealed, 'x-tokens:c1')).toBe('{"access_token":"a"}');
    await expect(envelope.open(sealed, 'x-tokens:c2')).rejects.toThrow();
    // One value per data key.
    expect(() => prepared.seal('again')).toThrow();
  });

  it('discarded, it seals nothing', async () => {
    const prepared = await new EnvelopeEncryption(new LocalKeyWrapper(randomBytes(32))).prepareSeal('ctx');
    prepared.discard();
    expect(() => prepared.seal('late')).toThrow();
  });
});
