/** Static and expiring agent tokens: round trips, canonical form, tampering, expiry and fail-closed cases. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CEO_IDENTITY } from './identity.js';
import { canonicalSubject, expiringToken, staticToken, verifyToken } from './tokens.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const SECRET = 'tokens-test-secret-0123456789abcdef0123456789';
const NOW = new Date('2026-03-01T12:00:00Z');
const dev = { id: 'be-dev-1', role: 'developer', team: 'backend' };

const decodePayload = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Signs any payload text the way the expiring form does, to build tokens the issuer never would. */
const signed = (payloadText: string) =>
  `${payloadText}.${createHmac('sha256', SECRET).update(payloadText).digest('hex')}`;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeEach(() => {
  vi.mocked(timingSafeEqual).mockClear();
});

describe('static tokens', () => {
  it('are the lowercase hex HMAC-SHA256 of "id:role:team"', () => {
    const expected = createHmac('sha256', SECRET).update('be-dev-1:developer:backend').digest('hex');
    expect(staticToken(SECRET, dev)).toBe(expected);
    expect(staticToken(SECRET, CEO_IDENTITY)).toBe(
      createHmac('sha256', SECRET).update('00000000-0000-0000-0000-000000000001:ceo:').digest('hex'),
    );
  });

  it('round-trip for the identity they were issued to', () => {
    const verdict = verifyToken(SECRET, staticToken(SECRET, dev), dev, NOW);
    expect(verdict).toEqual({ ok: true, subject: dev });
  });

  it('canonicalise fields: trimmed, lowercased, missing team is empty', () => {
    expect(staticToken(SECRET, { id: ' BE-Dev-1 ', role: 'Developer ', team: ' BACKEND' })).toBe(
      staticToken(SECRET, dev),
    );
    expect(staticToken(SECRET, { id: 'x', role: 'qa' })).toBe(
      staticToken(SECRET, { id: 'x', role: 'qa', team: '' }),
    );
    expect(canonicalSubject({ id: ' A ', role: 'QA' })).toEqual({ id: 'a', role: 'qa', team: '' });
    const claimed = { id: 'BE-DEV-1', role: 'DEVELOPER', team: 'Backend' };
    expect(verifyToken(SECRET, staticToken(SECRET, dev).toUpperCase(), claimed, NOW).ok).toBe(true);
  });

  it('do not verify for another identity, another secret or without a claimed id and role', () => {
    const token = staticToken(SECRET, dev);
    expect(verifyToken(SECRET, token, { ...dev, role: 'ceo' }, NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyToken(SECRET, token, { ...dev, team: 'frontend' }, NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyToken(`${SECRET}x`, token, dev, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken(SECRET, token, { role: 'developer' }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken(SECRET, `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`, dev, NOW).ok).toBe(
      false,
    );
  });
});

describe('expiring tokens', () => {
  it('carry {id, role, team, iat, exp} and a signature over the base64url text', () => {
    const token = expiringToken(SECRET, { id: 'BE-Dev-1', role: 'developer', team: 'backend' }, 3600, NOW);
    const [payloadText, signature] = token.split('.');
    expect(payloadText).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(signature).toBe(createHmac('sha256', SECRET).update(payloadText!).digest('hex'));
    const iat = NOW.getTime() / 1000;
    expect(decodePayload(token)).toEqual({ ...dev, iat, exp: iat + 3600 });
  });

  it('round-trip without claimed headers, naming their own subject and expiry', () => {
    const token = expiringToken(SECRET, dev, 3600, NOW);
    expect(verifyToken(SECRET, token, {}, NOW)).toEqual({
      ok: true,
      subject: dev,
      expiresAt: new Date(NOW.getTime() + 3_600_000),
    });
    expect(verifyToken(SECRET, token, { id: 'BE-DEV-1', role: 'Developer', team: 'backend' }, NOW).ok).toBe(
      true,
    );
  });

  it('reject a tampered signature', () => {
    const token = expiringToken(SECRET, dev, 3600, NOW);
    const flipped = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    expect(verifyToken(SECRET, flipped, {}, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken(SECRET, `${token.split('.')[0]}.`, {}, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('reject a tampered payload (promoted role, extended expiry) under the old signature', () => {
    const token = expiringToken(SECRET, dev, 3600, NOW);
    const signature = token.split('.')[1];
    const payload = decodePayload(token);
    for (const forged of [
      { ...payload, role: 'ceo' },
      { ...payload, exp: Number(payload.exp) + 1e6 },
    ]) {
      expect(verifyToken(SECRET, `${encode(forged)}.${signature}`, {}, NOW)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('reject signed payloads that are not JSON or lack a numeric exp', () => {
    expect(verifyToken(SECRET, signed('bm90IGpzb24'), {}, NOW).ok).toBe(false);
    for (const json of ['null', '42', '"text"', '[]']) {
      expect(verifyToken(SECRET, signed(Buffer.from(json).toString('base64url')), {}, NOW).ok).toBe(false);
    }
    const infiniteExp = '{"id":"be-dev-1","role":"developer","team":"backend","exp":1e999}';
    expect(verifyToken(SECRET, signed(Buffer.from(infiniteExp).toString('base64url')), {}, NOW).ok).toBe(
      false,
    );
    expect(verifyToken(SECRET, signed(encode({ ...dev })), {}, NOW).ok).toBe(false);
    expect(verifyToken(SECRET, signed(encode({ ...dev, exp: '9999999999' })), {}, NOW).ok).toBe(false);
    expect(verifyToken(SECRET, signed(encode({ role: 'ceo', exp: 9_999_999_999 })), {}, NOW).ok).toBe(false);
  });

  it('expire at exp', () => {
    const token = expiringToken(SECRET, dev, 60, NOW);
    expect(verifyToken(SECRET, token, {}, new Date(NOW.getTime() + 59_999)).ok).toBe(true);
    expect(verifyToken(SECRET, token, {}, new Date(NOW.getTime() + 60_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('reject claimed headers that contradict the payload', () => {
    const token = expiringToken(SECRET, dev, 3600, NOW);
    for (const claimed of [{ id: 'be-dev-2' }, { role: 'ceo' }, { team: 'frontend' }, { team: '' }]) {
      expect(verifyToken(SECRET, token, claimed, NOW)).toEqual({ ok: false, reason: 'mismatch' });
    }
  });
});

describe('fail closed', () => {
  it('rejects UNSIGNED, an empty token and an empty secret', () => {
    expect(verifyToken(SECRET, 'UNSIGNED', dev, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken(SECRET, '', dev, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken('', staticToken('', dev), dev, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken('', expiringToken('', dev, 60, NOW), {}, NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});

describe('constant-time comparison', () => {
  it('compares static tokens with timingSafeEqual', () => {
    verifyToken(SECRET, staticToken(SECRET, dev), dev, NOW);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it('compares expiring-token signatures with timingSafeEqual', () => {
    const token = expiringToken(SECRET, dev, 60, NOW);
    verifyToken(SECRET, token, {}, NOW);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
    const [left, right] = vi.mocked(timingSafeEqual).mock.calls[0]! as [Buffer, Buffer];
    expect(left.toString()).toBe(token.split('.')[1]);
    expect(right.toString()).toBe(token.split('.')[1]);
  });
});
