/**
 * Where an agent CLI is installed, against real layouts in a temp folder standing in for a home:
 * Claude Code's installer (a link to one native binary under ~/.local/share), an npm prefix and
 * nvm (bin links into lib/node_modules, a `node` of their own), a local install whose dependencies
 * are hoisted, a script in a checkout of its own — each bound, never the home around it — and a
 * CLI lying in the home itself, refused with the one file to add to GAFFER_AGENT_SANDBOX_READ.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliBound, type CliInstall, type CliRefused, installDirOf, isRefused } from './cli-install.js';
import { SYSTEM_DIRS } from './sandbox.js';

const home = mkdtempSync(join(tmpdir(), 'gaffer-cli-install-home-'));
const data = mkdtempSync(join(tmpdir(), 'gaffer-cli-install-data-'));
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});
const places = { forbidden: [home, data], visible: SYSTEM_DIRS };
const at = (path: string) => join(home, path);

/** A file at `path` under the home: `text` (a script) or a copy of /bin/true (a native binary). */
function put(path: string, text?: string): string {
  const file = at(path);
  mkdirSync(dirname(file), { recursive: true });
  if (text === undefined) copyFileSync('/bin/true', file);
  else writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}
function link(path: string, target: string): string {
  mkdirSync(dirname(at(path)), { recursive: true });
  symlinkSync(target, at(path));
  return at(path);
}
const json = (path: string, value: object) => {
  mkdirSync(dirname(at(path)), { recursive: true });
  writeFileSync(at(path), JSON.stringify(value));
};
const bound = (install: CliInstall | null): CliBound => {
  if (!install || isRefused(install)) throw new Error(`not bound: ${JSON.stringify(install)}`);
  return install;
};
const refused = (install: CliInstall | null): CliRefused => {
  if (!install || !isRefused(install)) throw new Error(`not refused: ${JSON.stringify(install)}`);
  return install;
};
const NODE_SCRIPT = '#!/usr/bin/env node\nconsole.log("hi");\n';

describe('the install of an agent CLI', () => {
  it("Claude Code's installer: the versions folder of the native binary, started by its real path", () => {
    const binary = put('.local/share/claude/versions/2.1.0');
    link('.local/bin/claude', '../share/claude/versions/2.1.0');
    json('package.json', { name: 'a-home-that-is-a-project' });
    const install = bound(installDirOf('claude', `${at('.local/bin')}:/usr/bin:/bin`, places));
    expect(install).toEqual({
      found: at('.local/bin/claude'),
      real: binary,
      bind: [at('.local/share/claude/versions')],
      argv0: binary,
    });
  });

  it('an npm prefix: the package root with its nested node_modules, not a marker package.json inside', () => {
    const pkg = '.npm-global/lib/node_modules/@google/gemini-cli';
    json(`${pkg}/package.json`, { name: '@google/gemini-cli', dependencies: { yargs: '^17' } });
    json(`${pkg}/node_modules/yargs/package.json`, { name: 'yargs' });
    json(`${pkg}/dist/package.json`, { type: 'module' });
    const script = put(`${pkg}/dist/index.js`, NODE_SCRIPT);
    link('.npm-global/bin/gemini', '../lib/node_modules/@google/gemini-cli/dist/index.js');
    // `node` is the system's here (/usr/bin): nothing more to bind for the interpreter.
    const install = bound(installDirOf('gemini', `${at('.npm-global/bin')}:/usr/bin:/bin`, places));
    expect(install).toEqual({
      found: at('.npm-global/bin/gemini'),
      real: script,
      bind: [at(pkg)],
      argv0: script,
    });
  });

  it("nvm: the package and the `node` its #! line finds on the PATH, never nvm's checkout around them", () => {
    const prefix = '.nvm/versions/node/v22.1.0';
    json('.nvm/package.json', { name: 'nvm' });
    put(`${prefix}/bin/node`);
    json(`${prefix}/lib/node_modules/codex/package.json`, { name: '@openai/codex' });
    const script = put(`${prefix}/lib/node_modules/codex/bin/codex.js`, NODE_SCRIPT);
    link(`${prefix}/bin/codex`, '../lib/node_modules/codex/bin/codex.js');
    const install = bound(installDirOf('codex', `${at(`${prefix}/bin`)}:/usr/bin:/bin`, places));
    expect(install.bind).toEqual([at(`${prefix}/lib/node_modules/codex`), at(`${prefix}/bin`)]);
    expect(install.argv0).toBe(script);
  });

  it('a local install whose dependencies are hoisted beside it: the whole node_modules', () => {
    json('tools/package.json', { name: 'tools' });
    json('tools/node_modules/claude-ish/package.json', {
      name: 'claude-ish',
      dependencies: { leftpad: '1' },
    });
    json('tools/node_modules/leftpad/package.json', { name: 'leftpad' });
    put('tools/node_modules/claude-ish/cli.js', NODE_SCRIPT);
    link('tools/node_modules/.bin/claude-ish', '../claude-ish/cli.js');
    const install = bound(installDirOf('claude-ish', at('tools/node_modules/.bin'), places));
    expect(install.bind).toEqual([at('tools/node_modules')]);
  });

  it('a script in a checkout of its own: that checkout; one with no package.json stops below the home', () => {
    json('src/tool/package.json', { name: 'tool' });
    put('src/tool/bin/run-tool', '#!/bin/sh\necho tool\n');
    const tool = bound(installDirOf('run-tool', at('src/tool/bin'), places));
    expect(tool).toMatchObject({ bind: [at('src/tool')], argv0: 'run-tool' });
    // The home holds a package.json: a script outside any package gets its own folder only.
    json('package.json', { name: 'a-home-that-is-a-project' });
    put('scripts/helper', '#!/bin/sh\necho helper\n');
    expect(bound(installDirOf(at('scripts/helper'), undefined, places)).bind).toEqual([at('scripts')]);
  });

  it('binds nothing for a program the sandbox already shows, and follows a link into it', () => {
    expect(bound(installDirOf('sh', '/usr/bin:/bin', places))).toMatchObject({ bind: [], argv0: 'sh' });
    link('bin/my-true', '/usr/bin/true');
    expect(bound(installDirOf('my-true', at('bin'), places))).toMatchObject({
      bind: [],
      argv0: '/usr/bin/true',
    });
    expect(installDirOf('gaffer-no-such-cli', '/usr/bin:/bin', places)).toBeNull();
  });

  it("never follows a program in the run's own files: a repository's link or #! line binds nothing", () => {
    json('secrets/package.json', { name: 'x' });
    put('secrets/tool', '#!/bin/sh\n');
    const worktree = at('work/repo');
    link('work/repo/run-me', at('secrets/tool'));
    put('work/repo/hashbang', `#!${at('secrets/tool')}\n`);
    const trusting = { ...places, untrusted: [worktree] };
    expect(installDirOf(join(worktree, 'run-me'), undefined, trusting)).toEqual({
      found: join(worktree, 'run-me'),
      real: at('secrets/tool'),
      bind: [],
      argv0: join(worktree, 'run-me'),
    });
    expect(bound(installDirOf(join(worktree, 'hashbang'), undefined, trusting)).bind).toEqual([]);
    // The same link on the server's own PATH is the operator's: its install is bound.
    expect(bound(installDirOf(join(worktree, 'run-me'), undefined, places)).bind).toEqual([at('secrets')]);
  });

  it('refuses a CLI lying in the home itself, naming the one file to add', () => {
    const loose = put('claude');
    const install = refused(installDirOf('claude', `${home}:/usr/bin`, places));
    expect(install.pathToAdd).toBe(loose);
    expect(install.refused).toBe(
      `the agent sandbox cannot bind claude (installed at ${loose}): its folder ${home} is kept out of every sandbox`,
    );
    const labels = new Map([[home, "the home of the server's user"]]);
    expect(refused(installDirOf(loose, undefined, { ...places, labels })).refused).toBe(
      `the agent sandbox cannot bind ${loose}: its folder ${home} is the home of the server's user`,
    );
  });

  it('refuses a CLI in a folder holding the data directory, and a script whose interpreter lies in the home', () => {
    const above = mkdtempSync(join(tmpdir(), 'gaffer-cli-install-above-'));
    try {
      const dataInside = join(above, 'data');
      mkdirSync(dataInside);
      const loose = join(above, 'cli');
      copyFileSync('/bin/true', loose);
      chmodSync(loose, 0o755);
      const install = refused(
        installDirOf(loose, undefined, { forbidden: [dataInside], visible: SYSTEM_DIRS }),
      );
      expect(install).toMatchObject({ pathToAdd: loose });
      expect(install.refused).toContain(`its folder ${above} holds ${dataInside}`);
    } finally {
      rmSync(above, { recursive: true, force: true });
    }
    const node = put('node');
    put('opt/cli/run', `#!${node}\n`);
    const interpreted = refused(installDirOf(at('opt/cli/run'), undefined, places));
    expect(interpreted.pathToAdd).toBe(node);
    expect(interpreted.refused).toContain(`cannot bind ${node}, the interpreter of ${at('opt/cli/run')}`);
  });
});
