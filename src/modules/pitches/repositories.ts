/**
 * A project repository for an approved pitch, on this machine: a bare repository under
 * `<dataDir>/repos/<slug>.git` with one commit on main (a README from the pitch), used as the
 * project's remote with the local provider. An existing repository there is kept as it is.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitStaged, GitRunner, initRepo, push, stage } from '../../platform/git/index.js';

const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;

export class LocalRepositories {
  private readonly runner: GitRunner;

  constructor(private readonly root: string) {
    this.runner = new GitRunner({ home: join(root, '.home') });
  }

  /** The repository's path (its git URL), created with its first commit when it is not there. */
  async ensure(slug: string, readme: string): Promise<string> {
    if (!SLUG.test(slug)) throw new Error(`not a repository slug: ${JSON.stringify(slug)}`);
    const dir = join(this.root, `${slug}.git`);
    if (existsSync(dir)) return dir;
    await initRepo(this.runner, dir, { bare: true, initialBranch: 'main' });
    const work = mkdtempSync(join(tmpdir(), 'gaffer-pitch-repo-'));
    try {
      const repo = await initRepo(this.runner, join(work, 'w'), { initialBranch: 'main' });
      writeFileSync(join(repo.dir, 'README.md'), readme);
      await stage(repo);
      await commitStaged(repo, {
        message: `Start ${slug}`,
        author: { name: 'gaffer', email: 'gaffer@agents.gaffer.local' },
      });
      await push(repo, { remote: dir, refspecs: ['refs/heads/main:refs/heads/main'] });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return dir;
  }
}
