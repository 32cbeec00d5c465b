/**
 * Encryption at rest for secrets Gaffer must keep but never show (git tokens, relay credentials):
 * AES-256-GCM under a key derived from the platform secret with HKDF-SHA256 and a purpose label,
 * so each use has its own key. Every seal takes a fresh random 12-byte IV. The sealed text is
 * `v1.<iv>.<tag>.<ciphertext>` (base64url parts): version, IV, 16-byte auth tag, ciphertext.
 * Optional associated data (e.g. the owning row's id) binds a ciphertext to its place, so a value
 * copied into another row does not open. Opening fails closed with `SecretBoxError`.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** HKDF salt: fixed, so the same secret and purpose always give the same key. */
const SALT = 'gaffer/secret-box/v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  /** Encrypts `plaintext`; `associatedData` must be given again to open it. */
  seal(plaintext: string, associatedData?: string): string;
  /** Decrypts a sealed value; throws SecretBoxError on a wrong key, tampering or another format. */
  open(sealed: string, associatedData?: string): string;
}

/** The AES-256 key for one purpose, derived from the platform secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  if (!secret) throw new SecretBoxError('no secret to derive an encryption key from');
  if (!purpose.trim()) throw new SecretBoxError('a secret box needs a purpose label');
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), SALT, `gaffer:${purpose}`, KEY_BYTES));
}

export function createSecretBox(secret: string, purpose: string): SecretBox {
  const key = deriveKey(secret, purpose);
  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${VERSION}.${b64(iv)}.${b64(tag)}.${b64(ciphertext)}`;
    },
    open(sealed, associatedData) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) {
        throw new SecretBoxError('the sealed value is not in a known format');
      }
      const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [
        Buffer,
        Buffer,
        Buffer,
      ];
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new SecretBoxError('the sealed value is malformed');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'the sealed value does not open: wrong key (has the platform secret changed?) or tampered data',
        );
      }
    },
  };
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');
