/**
 * This installation's sandbox: what it binds besides the system (Gaffer's own install, never the
 * checkout around it), what it keeps out (the data directory, the server user's home, the
 * checkout), the per-agent homes, the 503s when no sandbox can be made or the program lies where
 * the sandbox cannot see it, and `off`, which wraps nothing and says so.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    'on: runs the program in bwrap, and says so when it is missing or out of sight',
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

      const hidden = join(mkdtempSync(join(tmpdir(), 'gaffer-hidden-cli-')), 'my-cli');
      writeFileSync(hidden, '#!/bin/sh\n');
      chmodSync(hidden, 0o755);
      const outOfSight = await s
        .wrap({ workspace: work, home: work, path: process.env.PATH }, [hidden])
        .catch((e) => e);
      expect(outOfSight).toMatchObject({ statusCode: 503, code: 'agent_cli_outside_sandbox' });
      expect(outOfSight.remediate).toMatch(/GAFFER_AGENT_SANDBOX_READ/);
      rmSync(join(hidden, '..'), { recursive: true, force: true });

      // A readable path holding the data directory would expose it: refused, saying what to change.
      const wide = await sandbox({ read: [scratch] })
        .wrap({ workspace: work, home: work, path: process.env.PATH }, ['node'])
        .catch((e) => e);
      expect(wide).toMatchObject({ statusCode: 503, code: 'agent_sandbox_refused' });
      expect(wide.message).toMatch(/would expose .*data/);
    },
  );
});
