/** The auth secret: env wins, otherwise one private file generated once, even under a start-up race. */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecret, SECRET_FILE_NAME, SecretFileError } from './secret.js';

const posix = process.platform !== 'win32';
let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'gaffer-secret-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const config = (authSecret?: string) => ({ dataDir, authSecret });
const secretFile = () => join(dataDir, SECRET_FILE_NAME);

describe('loadOrCreateSecret', () => {
  it('generates 32 random bytes as hex into <dataDir>/auth-secret with mode 0600', () => {
    const secret = loadOrCreateSecret(config());
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(secretFile(), 'utf8').trim()).toBe(secret);
    if (posix) expect(statSync(secretFile()).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual([SECRET_FILE_NAME]);
  });

  it('is stable across calls (and restarts)', () => {
    const first = loadOrCreateSecret(config());
    expect(loadOrCreateSecret(config())).toBe(first);
    expect(loadOrCreateSecret({ dataDir })).toBe(first);
  });

  it('creates a missing data directory', () => {
    const nested = join(dataDir, 'a', 'b');
    const secret = loadOrCreateSecret({ dataDir: nested, authSecret: undefined });
    expect(readFileSync(join(nested, SECRET_FILE_NAME), 'utf8').trim()).toBe(secret);
  });

  it('prefers GAFFER_AUTH_SECRET and then writes nothing', () => {
    const fromEnv = 'env-secret-0123456789abcdef0123456789abcdef';
    expect(loadOrCreateSecret(config(fromEnv))).toBe(fromEnv);
    expect(existsSync(secretFile())).toBe(false);
    loadOrCreateSecret(config());
    expect(loadOrCreateSecret(config(fromEnv))).toBe(fromEnv);
  });

  it('reads an existing private file', () => {
    writeFileSync(secretFile(), 'operator-chosen-secret-0123456789abcdef\n', { mode: 0o600 });
    expect(loadOrCreateSecret(config())).toBe('operator-chosen-secret-0123456789abcdef');
  });

  it.skipIf(!posix)('refuses a file readable by group or others, naming the fix', () => {
    writeFileSync(secretFile(), `${'a'.repeat(64)}\n`, { mode: 0o600 });
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      chmodSync(secretFile(), mode);
      expect(() => loadOrCreateSecret(config())).toThrow(SecretFileError);
      expect(() => loadOrCreateSecret(config())).toThrow(/chmod 600/);
    }
    chmodSync(secretFile(), 0o400);
    expect(loadOrCreateSecret(config())).toBe('a'.repeat(64));
  });

  it('refuses a file too short to be a secret', () => {
    writeFileSync(secretFile(), 'short\n', { mode: 0o600 });
    expect(() => loadOrCreateSecret(config())).toThrow(/fewer than 32 characters/);
  });

  it('gives every process the same secret when several start at once', async () => {
    const run = promisify(execFile);
    const moduleUrl = new URL('./secret.ts', import.meta.url).href;
    const script = `import(${JSON.stringify(moduleUrl)}).then((m) => process.stdout.write(m.loadOrCreateSecret({ dataDir: ${JSON.stringify(dataDir)} })))`;
    const tsx = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
    const results = await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, [tsx, '--eval', script], { encoding: 'utf8' })),
    );
    const secrets = new Set(results.map((r) => r.stdout.trim()));
    expect(secrets.size).toBe(1);
    expect(readFileSync(secretFile(), 'utf8').trim()).toBe([...secrets][0]);
    expect(readdirSync(dataDir)).toEqual([SECRET_FILE_NAME]);
  }, 60_000);
});
