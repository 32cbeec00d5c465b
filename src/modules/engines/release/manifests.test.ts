import { describe, expect, it } from 'vitest';
import { bumpFileText, manifestVersion, standaloneVersion, standaloneVersionEre } from './manifests.js';

describe('manifests', () => {
  it('reads the version each manifest declares', () => {
    expect(manifestVersion('package.json', '{"name":"gaffer","version":"0.29.0"}')).toBe('0.29.0');
    expect(manifestVersion('package.json', '{"name":"gaffer"}')).toBeNull();
    expect(manifestVersion('package.json', '{not json')).toBeNull();
    expect(manifestVersion('pyproject.toml', '[project]\nname = "x"\nversion = "1.2.3"\n')).toBe('1.2.3');
    expect(manifestVersion('Cargo.toml', "[package]\nname = 'x'\nversion = '0.4.0'\n")).toBe('0.4.0');
    expect(manifestVersion('VERSION', 'v2.0.1\n')).toBe('2.0.1');
    expect(manifestVersion('README.md', 'version 1.0.0')).toBeNull();
  });

  it('bumps only the package’s own version in package.json and package-lock.json', () => {
    const pkg = '{\n  "name": "gaffer",\n  "version": "0.29.0",\n  "dependencies": { "x": "0.29.0" }\n}\n';
    expect(bumpFileText('package.json', pkg, '0.29.0', '0.30.0')).toBe(
      '{\n  "name": "gaffer",\n  "version": "0.30.0",\n  "dependencies": { "x": "0.29.0" }\n}\n',
    );
    const lock = JSON.stringify(
      {
        name: 'gaffer',
        version: '0.29.0',
        lockfileVersion: 3,
        packages: { '': { name: 'gaffer', version: '0.29.0' }, 'node_modules/x': { version: '0.29.0' } },
      },
      null,
      2,
    );
    const bumped = JSON.parse(bumpFileText('package-lock.json', lock, '0.29.0', '0.30.0'));
    expect(bumped.version).toBe('0.30.0');
    expect(bumped.packages[''].version).toBe('0.30.0');
    expect(bumped.packages['node_modules/x'].version).toBe('0.29.0');
  });

  it('bumps TOML manifests, VERSION, and standalone mentions elsewhere', () => {
    expect(bumpFileText('pyproject.toml', 'version = "1.2.3"\ndep = "1.2.3"\n', '1.2.3', '1.3.0')).toBe(
      'version = "1.3.0"\ndep = "1.2.3"\n',
    );
    expect(bumpFileText('VERSION', '1.2.3\n', '1.2.3', '1.3.0')).toBe('1.3.0\n');
    expect(
      bumpFileText(
        'src/version.ts',
        "export const VERSION = '0.29.0'; // not 10.29.0 nor 0.29.01\n",
        '0.29.0',
        '0.30.0',
      ),
    ).toBe("export const VERSION = '0.30.0'; // not 10.29.0 nor 0.29.01\n");
    expect(bumpFileText('README.md', 'install gaffer@0.29.0 (v0.29.0)', '0.29.0', '0.30.0')).toBe(
      'install gaffer@0.30.0 (v0.30.0)',
    );
  });

  it('matches a version standing alone, in JS and as a git grep ERE alike', () => {
    const cases: Array<[string, boolean]> = [
      ['0.29.0', true],
      ['v0.29.0', true],
      ['gaffer@0.29.0.', true],
      ['gaffer-0.29.0.tgz', true],
      ['10.29.0', false],
      ['0.29.01', false],
      ['0.29.0.1', false],
      ['x0.29.0', false],
    ];
    for (const [text, expected] of cases) {
      expect(standaloneVersion('0.29.0', '').test(text), text).toBe(expected);
      expect(new RegExp(standaloneVersionEre('0.29.0')).test(text), `${text} (ERE)`).toBe(expected);
    }
  });
});
