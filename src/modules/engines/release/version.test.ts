import { describe, expect, it } from 'vitest';
import { type ChangeKind, classifyCommit } from './classify.js';
import { cleanVersion, planVersion, releaseTag, releaseThreshold } from './version.js';

const change = (kind: ChangeKind, breaking = false) => ({ kind, breaking });
const fromMessages = (...subjects: string[]) =>
  subjects.map((subject, index) => classifyCommit({ sha: String(index), subject, body: '' }));

describe('planVersion', () => {
  const table: Array<[string, string[], boolean, string, string]> = [
    ['1.4.2', ['fix: a', 'chore: b'], false, '1.4.3', 'patch'],
    ['1.4.2', ['fix: a', 'feat: b'], false, '1.5.0', 'minor'],
    ['1.4.2', ['feat!: b'], false, '2.0.0', 'major'],
    ['0.29.0', ['feat(api)!: drop v1'], false, '0.30.0', 'minor'],
    ['0.29.0', ['feat(api)!: drop v1'], true, '1.0.0', 'major'],
    ['0.29.0', ['feat: new'], false, '0.30.0', 'minor'],
    ['0.29.0', ['fix: old'], false, '0.29.1', 'patch'],
    ['v2.0.0', ['docs: x'], false, '2.0.1', 'patch'],
    ['3.1.0', ['Update README'], false, '3.1.1', 'patch'],
  ];

  it.each(table)('%s + %j (allow major from zero: %s) → %s', (current, subjects, allow, next, bump) => {
    const plan = planVersion(current, fromMessages(...subjects), { allowMajorFromZero: allow });
    expect(plan.next).toBe(next);
    expect(plan.bump).toBe(bump);
  });

  it('states the pre-1.0 rule when it changed the bump', () => {
    const held = planVersion('0.29.0', [change('fix', true)], { allowMajorFromZero: false });
    expect(held.rule).toMatch(/pre-1\.0 rule/);
    const left = planVersion('0.29.0', [change('fix', true)], { allowMajorFromZero: true });
    expect(left.rule).toMatch(/leaving 0\.x/);
    expect(planVersion('1.0.0', [change('feat')], { allowMajorFromZero: false }).rule).toMatch(/minor bump/);
  });

  it('refuses a version that is not semver', () => {
    expect(() => planVersion('banana', [], { allowMajorFromZero: false })).toThrow(/not a semantic version/);
  });
});

describe('releaseThreshold', () => {
  it('opens at the commit floor, or on one feat, security or breaking commit', () => {
    expect(releaseThreshold([], 8).met).toBe(false);
    expect(releaseThreshold(Array(7).fill(change('fix')), 8).met).toBe(false);
    expect(releaseThreshold(Array(8).fill(change('chore')), 8).met).toBe(true);
    expect(releaseThreshold([change('feat')], 8)).toMatchObject({
      met: true,
      reason: expect.stringMatching(/feat commit/),
    });
    expect(releaseThreshold([change('security')], 8).met).toBe(true);
    expect(releaseThreshold([change('fix', true)], 8)).toMatchObject({
      met: true,
      reason: expect.stringMatching(/breaking/),
    });
    expect(releaseThreshold([change('perf'), change('docs')], 8).reason).toMatch(/below the threshold of 8/);
  });
});

describe('versions and tags', () => {
  it('cleans versions and names tags vX.Y.Z', () => {
    expect(cleanVersion(' v1.2.3 ')).toBe('1.2.3');
    expect(cleanVersion('1.2')).toBeNull();
    expect(cleanVersion(null)).toBeNull();
    expect(releaseTag('0.30.0')).toBe('v0.30.0');
  });
});
