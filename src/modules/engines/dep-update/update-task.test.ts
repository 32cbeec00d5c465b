import { describe, expect, it } from 'vitest';
import { depUpdateTargets } from './targets.js';
import { updateTaskText } from './update-task.js';

describe('updateTaskText', () => {
  const [target] = depUpdateTargets(
    ['shop', 'shop-web'].map((slug) => ({
      id: `id-${slug}`,
      slug,
      gitUrl: 'https://github.com/acme/shop.git',
      defaultBranch: 'main',
      environments: null,
      depUpdateCommand: 'npm update',
      depUpdatePaths: null,
      agentNetworkAllow: [],
    })),
  );

  it('names the project, the command, the changed lockfiles with a diff stat, and two criteria', () => {
    const text = updateTaskText(target!, [
      { path: 'package-lock.json', kind: 'modified', insertions: 3, deletions: 2 },
    ]);
    expect(text.title).toBe('Update dependencies on shop');
    expect(text.description).toContain('running `npm update` on a fresh clone of its main branch');
    expect(text.description).toContain('- package-lock.json (npm): +3 -2');
    expect(text.description).toContain('1 lockfile changed, 3 insertions(+), 2 deletions(-)');
    expect(text.description).toContain('also back: shop-web');
    expect(text.description).toContain('ready to start now, no approval needed');
    expect(text.acceptanceCriteria).toHaveLength(2);
    expect(text.acceptanceCriteria[1]).toContain('package-lock.json refreshed');
  });
});
