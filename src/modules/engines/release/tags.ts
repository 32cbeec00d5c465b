/**
 * The repository's tags and which one is "the last tag" of a ref, found without `git describe`
 * (which walks the whole history to measure a distance the release manager never uses): a tag on
 * the ref's tip or on a boundary commit of the commit walk wins at once; otherwise the newest
 * versions are tried with `merge-base --is-ancestor`, and only then `describe`.
 */
import semver from 'semver';
import { assertRef, type GitRepo, gitRaw } from '../../../platform/git/index.js';
import { cleanVersion } from './version.js';

export interface TagRef {
  name: string;
  /** The commit it points at (peeled for an annotated tag). */
  sha: string;
  /** Its semantic version, or null for a tag that is not one. */
  version: string | null;
}

/** Every tag with the commit it names: one `for-each-ref`. */
export async function listTagRefs(repo: GitRepo): Promise<TagRef[]> {
  const out = await gitRaw(repo, [
    'for-each-ref',
    '--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)',
    'refs/tags/',
  ]);
  return out.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', object = '', peeled = ''] = line.split('\0');
      return { name, sha: peeled || object, version: cleanVersion(name) };
    });
}

/** Newest first: semantic versions by precedence, then other tags by name (descending). */
export function byNewest(a: TagRef, b: TagRef): number {
  if (a.version && b.version) return semver.rcompare(a.version, b.version);
  if (a.version) return -1;
  if (b.version) return 1;
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}

/** The newest tag naming one of `shas`, or null. Pure. */
export function newestTagAt(tags: readonly TagRef[], shas: ReadonlySet<string>): string | null {
  return [...tags].filter((tag) => shas.has(tag.sha)).sort(byNewest)[0]?.name ?? null;
}

/** How many of the newest tags are tried by ancestry before falling back to `git describe`. */
const ANCESTRY_CANDIDATES = 10;

/** The last tag reachable from `ref` (whose sha is `refSha`), or null when none is. */
export async function lastTagOf(
  repo: GitRepo,
  ref: string,
  refSha: string | null,
  tags: readonly TagRef[],
  boundary: ReadonlySet<string> = new Set(),
): Promise<string | null> {
  if (tags.length === 0) return null;
  const atTip = newestTagAt(tags, new Set([...(refSha ? [refSha] : []), ...boundary]));
  if (atTip) return atTip;
  for (const tag of [...tags].sort(byNewest).slice(0, ANCESTRY_CANDIDATES)) {
    const check = await gitRaw(repo, ['merge-base', '--is-ancestor', tag.sha, assertRef(ref)], {
      okExitCodes: [1],
    });
    if (check.exitCode === 0) return tag.name;
  }
  const described = await gitRaw(
    repo,
    ['describe', '--tags', '--abbrev=0', '--end-of-options', assertRef(ref)],
    {
      okExitCodes: [128],
    },
  );
  const name = described.stdout.toString('utf8').trim();
  return described.exitCode === 0 && name ? name : null;
}
