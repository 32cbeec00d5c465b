/** The git and file facts a readiness pass reads from a checkout of the head rung. */
import type { DocMention } from './checks.js';
import type { ClassifiedCommit, CommitMessage } from './classify.js';
import type { MigrationChain } from './migrations.js';

export interface ReadinessSnapshot {
  headBranch: string;
  prodBranch: string;
  /** The checkout's HEAD (the head rung's tip); null when it could not be resolved. */
  headSha: string | null;
  /** The newest tag reachable from prod (a ladder) or HEAD, or null. */
  lastTag: string | null;
  /** Non-merge commits since the last release (reachable from HEAD, from no tag), newest first. */
  commits: CommitMessage[];
  /** The same commits classified, oldest first. */
  changes: ClassifiedCommit[];
  /**
   * The version the next one is computed from: the higher of the manifest's and the last tag's (with
   * a ladder the release's bump lives on prod until the next promotion brings it to the head rung).
   */
  currentVersion: string | null;
  /** The version the first manifest (package.json, pyproject.toml, Cargo.toml, VERSION) declares. */
  manifestVersion: string | null;
  /** Files the newest `chore(release):` commit changed; null when there is none (a first release). */
  previousReleaseFiles: string[] | null;
  /** Tracked files holding the manifest version as a standalone string. */
  filesWithVersion: string[];
  /** CHANGELOG.md's text, null when the file is absent. */
  changelogText: string | null;
  docMentions: DocMention[];
  migrationChains: MigrationChain[];
}
