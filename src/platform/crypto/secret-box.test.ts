/** The at-rest encryption helper: round trips, fresh IVs, per-purpose keys, and failing closed. */
import { describe, expect, it } from 'vitest';
import { createSecretBox, deriveKey, SecretBoxError } from './secret-box.js';

const SECRET = 'platform-secret-0123456789abcdef0123456789';

describe('secret box', () => {
  it('opens what it sealed, unicode and empty text included', () => {
    const box = createSecretBox(SECRET, 'test');
    for (const text of ['ghp_abc123', 'påsswörd ✓', '']) expect(box.open(box.seal(text))).toBe(text);
  });

  it('stores version, 12-byte IV, 16-byte tag and ciphertext, never the plaintext', () => {
    const sealed = createSecretBox(SECRET, 'test').seal('ghp_supersecret');
    const [version, iv, tag, ciphertext] = sealed.split('.');
    expect(version).toBe('v1');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext!, 'base64url')).toHaveLength('ghp_supersecret'.length);
    expect(sealed).not.toContain('supersecret');
  });

  it('uses a fresh IV for every seal', () => {
    const box = createSecretBox(SECRET, 'test');
    const a = box.seal('same');
    const b = box.seal('same');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('derives a different 32-byte key per purpose and per secret', () => {
    const key = deriveKey(SECRET, 'projects.git_token');
    expect(key).toHaveLength(32);
    expect(deriveKey(SECRET, 'projects.git_token').equals(key)).toBe(true);
    expect(deriveKey(SECRET, 'telegram.credentials').equals(key)).toBe(false);
    expect(deriveKey(`${SECRET}x`, 'projects.git_token').equals(key)).toBe(false);
    expect(() => createSecretBox(SECRET, 'a').open(createSecretBox(SECRET, 'b').seal('x'))).toThrow(
      SecretBoxError,
    );
  });

  it('refuses another secret, tampering, other associated data and unknown formats', () => {
    const box = createSecretBox(SECRET, 'test');
    const sealed = box.seal('token', 'row-1');
    expect(box.open(sealed, 'row-1')).toBe('token');
    expect(() => box.open(sealed, 'row-2')).toThrow(SecretBoxError);
    expect(() => box.open(sealed)).toThrow(SecretBoxError);
    expect(() => createSecretBox('another-secret', 'test').open(sealed, 'row-1')).toThrow(SecretBoxError);

    const [v, iv, tag, ct] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'), 'row-1')).toThrow(
      SecretBoxError,
    );
    for (const bad of ['', 'token', `v2.${iv}.${tag}.${ct}`, `v1.${iv}.${ct}`, `v1.AA.${tag}.${ct}`]) {
      expect(() => box.open(bad, 'row-1')).toThrow(SecretBoxError);
    }
  });

  it('needs a secret and a purpose', () => {
    expect(() => createSecretBox('', 'test')).toThrow(SecretBoxError);
    expect(() => createSecretBox(SECRET, ' ')).toThrow(SecretBoxError);
  });
});
