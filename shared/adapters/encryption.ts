/**
 * Envelope encryption for secrets the service keeps in its table (a platform account's OAuth
 * tokens): each value is sealed with a fresh 256-bit data key under AES-256-GCM, and only the data
 * key, wrapped by a master key, is stored beside it. In AWS the master key is a KMS key that never
 * leaves KMS (kmsEncryption.ts); locally it is a key file kept beside the data; tests make their own.
 * The `context` (what the value is and whose) is bound to both layers as additional authenticated
 * data, so a sealed value copied onto another community's item does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EncryptionPort {
  seal(plaintext: string, context: string): Promise<string>;
  /**
   * A seal whose data key is made now (the master key's one call, KMS in AWS), for a value known only
   * later: sealing it then calls nothing that can fail (an OAuth answer that must be stored at once).
   */
  prepareSeal(context: string): Promise<PreparedSeal>;
  open(sealed: string, context: string): Promise<string>;
}

/** Seals one value with the data key made beforehand, then forgets the key; `discard` forgets it unused. */
export interface PreparedSeal {
  seal(plaintext: string): string;
  discard(): void;
}

/** What a master key does to a data key: wrap it for storage, unwrap it to open a value. */
export interface KeyWrapper {
  /** A new data key, in the clear and wrapped. */
  newDataKey(context: string): Promise<{ plain: Buffer; wrapped: Buffer }>;
  unwrap(wrapped: Buffer, context: string): Promise<Buffer>;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function gcmSeal(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

export function gcmOpen(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

/** The envelope, whichever master key wraps the data keys. */
export class EnvelopeEncryption implements EncryptionPort {
  constructor(private readonly wrapper: KeyWrapper) {}

  async seal(plaintext: string, context: string): Promise<string> {
    return (await this.prepareSeal(context)).seal(plaintext);
  }

  async prepareSeal(context: string): Promise<PreparedSeal> {
    const { plain, wrapped } = await this.wrapper.newDataKey(context);
    let used = false;
    return {
      seal: (plaintext) => {
        // One value per data key, as seal() does; the key is zeroed once used.
        if (used) throw new Error('A prepared seal seals one value');
        used = true;
        try {
          return [
            VERSION,
            wrapped.toString('base64url'),
            gcmSeal(plain, Buffer.from(plaintext, 'utf8'), context).toString('base64url'),
          ].join('.');
        } finally {
          plain.fill(0);
        }
      },
      discard: () => {
        used = true;
        plain.fill(0);
      },
    };
  }

  async open(sealed: string, context: string): Promise<string> {
    const [version, wrapped, body] = sealed.split('.');
    if (version !== VERSION || !wrapped || !body) throw new Error('Not a sealed value');
    const key = await this.wrapper.unwrap(Buffer.from(wrapped, 'base64url'), context);
    return gcmOpen(key, Buffer.from(body, 'base64url'), context).toString('utf8');
  }
}

/** A master key held in memory: data keys are wrapped with AES-256-GCM under it. */
export class LocalKeyWrapper implements KeyWrapper {
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
  }
  async newDataKey(context: string) {
    const plain = randomBytes(32);
    return { plain, wrapped: gcmSeal(this.masterKey, plain, context) };
  }
  async unwrap(wrapped: Buffer, context: string) {
    return gcmOpen(this.masterKey, wrapped, context);
  }
}

/** Tests: a key of their own, gone with the process. */
export const ephemeralEncryption = (): EncryptionPort => new EnvelopeEncryption(new LocalKeyWrapper(randomBytes(32)));

export const LOCAL_KEY_FILE = 'token-encryption.key';

/**
 * `npm start`: the master key lives in a file beside the local database (created on first use, owner
 * read-only), so tokens stored before a restart still open, and `--fresh` removes both together.
 */
export function keyFileEncryption(dataDir: string): EncryptionPort {
  const file = join(dataDir, LOCAL_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return new EnvelopeEncryption(new LocalKeyWrapper(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')));
}
