/**
 * The demo's sample project: a bare git repository under the data directory (created once, kept
 * across demo runs) holding a tiny HTTP service on `main`, which the demo registers as a project on
 * the `local` forge.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commitStaged, GitRunner, initRepo, push, stage } from '../platform/git/index.js';

const SAMPLE_FILES: Record<string, string> = {
  'README.md': '# Sample shop\n\nA tiny HTTP service the Gaffer demo company works on.\n',
  'package.json': `${JSON.stringify({ name: 'sample-shop', version: '0.1.0', type: 'module', main: 'src/server.js' }, null, 2)}\n`,
  'src/server.js': [
    "import { createServer } from 'node:http';",
    '',
    'export const server = createServer((request, response) => {',
    "  response.writeHead(404, { 'content-type': 'text/plain' });",
    "  response.end('not found\\n');",
    '});',
    '',
  ].join('\n'),
};

const SEEDER = { name: 'Gaffer demo', email: 'demo@gaffer.invalid' };

/** The sample repository's path under `dataDir`, created with one commit on `main` when missing. */
export async function ensureSampleRepository(dataDir: string): Promise<string> {
  const bare = join(dataDir, 'demo', 'sample-shop.git');
  if (existsSync(join(bare, 'HEAD'))) return bare;
  mkdirSync(dirname(bare), { recursive: true });
  const runner = new GitRunner({ home: join(dataDir, 'demo', 'git-home') });
  await initRepo(runner, bare, { bare: true, initialBranch: 'main' });
  const work = mkdtempSync(join(tmpdir(), 'gaffer-demo-seed-'));
  try {
    const repo = await initRepo(runner, join(work, 'w'), { initialBranch: 'main' });
    for (const [path, content] of Object.entries(SAMPLE_FILES)) {
      mkdirSync(dirname(join(repo.dir, path)), { recursive: true });
      writeFileSync(join(repo.dir, path), content);
    }
    await stage(repo);
    await commitStaged(repo, { message: 'Initial commit: the sample shop', author: SEEDER });
    await push(repo, { remote: bare, refspecs: ['refs/heads/main:refs/heads/main'] });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bare;
}
