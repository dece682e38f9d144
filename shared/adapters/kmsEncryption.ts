/**
 * The AWS master key: a KMS key (the stack's token key, TOKEN_KEY_ARN). Data keys come from
 * GenerateDataKey and are opened with Decrypt, both bound to the value's context through KMS's
 * encryption context (so CloudTrail names what was opened). Opened data keys are kept in memory for
 * a few minutes: a poll of many communities would otherwise ask KMS once per token read.
 */
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { requiredSetting } from '#shared/config/config';
import { EnvelopeEncryption, type EncryptionPort, type KeyWrapper } from './encryption';

const CACHE_MS = 5 * 60 * 1000;
const CACHE_ENTRIES = 500;

export class KmsKeyWrapper implements KeyWrapper {
  private readonly opened = new Map<string, { key: Buffer; at: number }>();
  constructor(
    private readonly keyId: string,
    private readonly client: KMSClient,
  ) {}

  async newDataKey(context: string) {
    const out = await this.client.send(
      new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: { purpose: context } }),
    );
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    return { plain: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
  }

  async unwrap(wrapped: Buffer, context: string) {
    const cacheKey = `${context}\n${wrapped.toString('base64')}`;
    const hit = this.opened.get(cacheKey);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.key;
    const out = await this.client.send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: wrapped, EncryptionContext: { purpose: context } }),
    );
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    const key = Buffer.from(out.Plaintext);
    if (this.opened.size >= CACHE_ENTRIES) this.opened.delete(this.opened.keys().next().value as string);
    this.opened.set(cacheKey, { key, at: Date.now() });
    return key;
  }
}

export const kmsEncryption = (keyId: string, client = new KMSClient({})): EncryptionPort =>
  new EnvelopeEncryption(new KmsKeyWrapper(keyId, client));

/** The encryption port of the functions that seal or open tokens (the others neither bundle nor load the KMS SDK). */
export const tokenKeyEncryption = (): EncryptionPort => kmsEncryption(requiredSetting('TOKEN_KEY_ARN'));
