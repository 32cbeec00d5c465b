/**
 * This installation's sandbox: what it binds besides the system (Gaffer's own install, never the
 * checkout around it), what it keeps out (the data directory, the server user's home, the
 * checkout), the per-agent homes, the 503s when no sandbox can be made or the program lies where
 * the sandbox cannot see it, and `off`, which wraps nothing and says so.
 */
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { AgentSandbox, SANDBOX_OFF_WARNING, sandboxWarnings } from './agent-sandbox.js';
import { ProcessStartError } from './group.js';
import { probeSandbox } from './sandbox.js';

const CHECKOUT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const scratch = mkdtempSync(join(tmpdir(), 'gaffer-agent-sandbox-'));
const work = mkdtempSync(join(tmpdir(), 'gaffer-agent-sandbox-work-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});
const bwrap = await probeSandbox();

const sandbox = (options: Partial<ConstructorParameters<typeof AgentSandbox>[0]> = {}) =>
  new AgentSandbox({ mode: 'on', dataDir: join(scratch, 'data'), ...options });

describe('the sandbox of an installation', () => {
  it("reads Gaffer's code, node_modules and package.json, never the checkout around them", () => {
    const { installs, forbidden } = sandbox({ read: [scratch] });
    expect(installs).toEqual(
      expect.arrayContaining([
        join(CHECKOUT, 'src'),
        join(CHECKOUT, 'node_modules'),
        join(CHECKOUT, 'package.json'),
      ]),
    );
    expect(installs).toContain(scratch);
    expect(installs).not.toContain(CHECKOUT);
    expect(forbidden).toEqual(expect.arrayContaining([join(scratch, 'data'), CHECKOUT, homedir()]));
  });

  it('keeps each agent a home of its own under the data directory', () => {
    const s = sandbox();
    expect(s.homeOf('be-dev-1')).toBe(join(scratch, 'data', 'agent-homes', 'be-dev-1'));
    expect(s.homeOf('../../etc')).toBe(join(scratch, 'data', 'agent-homes', '______etc'));
  });

  it('off: wraps nothing, and every surface gets the warning', async () => {
    const off = sandbox({ mode: 'off' });
    expect(await off.wrap({ workspace: work, home: work, path: process.env.PATH }, ['claude', '-p'])).toEqual(
      ['claude', '-p'],
    );
    const state = await off.state();
    expect(state).toMatchObject({ mode: 'off', ready: false, warning: SANDBOX_OFF_WARNING });
    expect(sandboxWarnings(state)).toEqual([SANDBOX_OFF_WARNING]);
  });

  it('on without bwrap: refuses with a 503 that says what to install', async () => {
    const none = sandbox({ bwrap: 'gaffer-no-such-bwrap' });
    const state = await none.state();
    expect(state).toMatchObject({ mode: 'on', ready: false });
    expect(sandboxWarnings(state)[0]).toMatch(/agents cannot start: .*not installed/);
    const error = await none
      .wrap({ workspace: work, home: work, path: process.env.PATH }, ['node'])
      .catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 503, code: 'agent_sandbox_unavailable' });
    expect(error.remediate).toMatch(/apt-get install bubblewrap/);
  });

  it.skipIf(!bwrap.ok)(
    'on: runs the program in bwrap, binds its install, and says so when it is missing or cannot be bound',
    async () => {
      const s = sandbox();
      expect(await s.state()).toMatchObject({ mode: 'on', ready: true, warning: null });
      const argv = await s.wrap({ workspace: work, home: work, path: process.env.PATH }, ['node', '-v']);
      expect(argv[0]).toBe('bwrap');
      expect(argv.slice(-3)).toEqual(['--', 'node', '-v']);

      const missing = await s
        .wrap({ workspace: work, home: work, path: process.env.PATH }, ['gaffer-no-such-cli'])
        .catch((e) => e);
      expect(missing).toBeInstanceOf(ProcessStartError);

      // A CLI installed outside what every sandbox reads: its folder is bound for the run.
      const elsewhere = mkdtempSync(join(tmpdir(), 'gaffer-elsewhere-cli-'));
      const installed = join(elsewhere, 'my-cli');
      writeFileSync(installed, '#!/bin/sh\n');
      chmodSync(installed, 0o755);
      const bound = await s.wrap({ workspace: work, home: work, path: process.env.PATH }, [installed, '-p']);
      expect(bound.join(' ')).toContain(`--ro-bind ${elsewhere} ${elsewhere}`);
      expect(bound.slice(-3)).toEqual(['--', installed, '-p']);

      // A link in the run's own worktree is the repository's: never followed, nothing bound for it.
      const planted = join(work, 'planted');
      symlinkSync(installed, planted);
      const untouched = await s.wrap({ workspace: work, home: work, path: process.env.PATH }, [planted]);
      expect(untouched.join(' ')).not.toContain(elsewhere);
      expect(untouched.slice(-2)).toEqual(['--', planted]);
      rmSync(planted);
      rmSync(elsewhere, { recursive: true, force: true });

      // One lying in the home of the server's user: refused, naming the one file to add.
      const fakeHome = mkdtempSync(join(tmpdir(), 'gaffer-fake-home-'));
      const loose = join(fakeHome, 'my-cli');
      writeFileSync(loose, '#!/bin/sh\n');
      chmodSync(loose, 0o755);
      const outOfSight = await sandbox({ home: fakeHome })
        .wrap({ workspace: work, home: work, path: `${fakeHome}:${process.env.PATH}` }, ['my-cli'])
        .catch((e) => e);
      expect(outOfSight).toMatchObject({ statusCode: 503, code: 'agent_cli_outside_sandbox' });
      expect(outOfSight.details).toMatchObject({ program: 'my-cli', add_to_sandbox_read: loose });
      expect(outOfSight.remediate).toMatch(`add ${loose} to GAFFER_AGENT_SANDBOX_READ`);
      rmSync(fakeHome, { recursive: true, force: true });

      // A readable path holding the data directory would expose it: refused, saying what to change.
      const wide = await sandbox({ read: [scratch] })
        .wrap({ workspace: work, home: work, path: process.env.PATH }, ['node'])
        .catch((e) => e);
      expect(wide).toMatchObject({ statusCode: 503, code: 'agent_sandbox_refused' });
      expect(wide.message).toMatch(/would expose .*data/);
    },
  );
});
