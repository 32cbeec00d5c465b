/**
 * The CHANGELOG (Keep a Changelog shape): the curated `## [Unreleased]` body, the generated
 * conventional-commit summary used when there is none, the drafted entry, and stamping a release
 * into the file (the new `## [X.Y.Z] - YYYY-MM-DD` section under an emptied `[Unreleased]`, which is
 * kept, or added when the file had none). Pure.
 */
import type { ChangeKind, ClassifiedCommit } from './classify.js';

export const CHANGELOG_PATH = 'CHANGELOG.md';

const UNRELEASED_HEADING = /^##[ \t]+\[?unreleased\]?[ \t]*$/im;
const SECTION_HEADING = /^##[ \t]+/m;

/** The section groups of a generated entry, in order, and the kinds each holds. */
const GROUPS: ReadonlyArray<{ title: string; kinds: readonly ChangeKind[] }> = [
  { title: 'Added', kinds: ['feat'] },
  { title: 'Fixed', kinds: ['fix'] },
  { title: 'Security', kinds: ['security'] },
  { title: 'Changed', kinds: ['perf', 'refactor', 'docs', 'chore', 'other'] },
];

interface UnreleasedSection {
  /** Index of the heading line's first character. */
  start: number;
  /** Index just past the heading line (its newline included). */
  bodyStart: number;
  /** Index of the next `## ` heading, or the end of the text. */
  end: number;
}

function findUnreleased(text: string): UnreleasedSection | null {
  const heading = UNRELEASED_HEADING.exec(text);
  if (!heading) return null;
  const start = heading.index;
  const lineEnd = text.indexOf('\n', start);
  const bodyStart = lineEnd < 0 ? text.length : lineEnd + 1;
  const next = SECTION_HEADING.exec(text.slice(bodyStart));
  return { start, bodyStart, end: next ? bodyStart + next.index : text.length };
}

/** Whether the file has an `## [Unreleased]` section at all. */
export const hasUnreleasedSection = (text: string): boolean => findUnreleased(text) !== null;

/** The curated `[Unreleased]` body, trimmed; null when there is no section or it is blank. */
export function unreleasedBody(text: string): string | null {
  const section = findUnreleased(text);
  if (!section) return null;
  const body = text.slice(section.bodyStart, section.end).trim();
  return body ? body : null;
}

function bullet(change: ClassifiedCommit): string {
  const scope = change.scope ? `**${change.scope}:** ` : '';
  const breaking = change.breaking ? '**BREAKING** ' : '';
  const pr = change.pr !== null && !change.summary.includes(`#${change.pr}`) ? ` (#${change.pr})` : '';
  return `- ${breaking}${scope}${change.summary}${pr}`;
}

/** The conventional-commit summary, grouped by kind (Added, Fixed, Security, Changed), oldest first. */
export function generatedSummary(changes: readonly ClassifiedCommit[]): string {
  const sections: string[] = [];
  for (const group of GROUPS) {
    const items = changes.filter((change) => group.kinds.includes(change.kind));
    if (items.length === 0) continue;
    sections.push(`### ${group.title}\n\n${items.map(bullet).join('\n')}`);
  }
  return sections.length ? sections.join('\n\n') : '- Maintenance release.';
}

export interface DraftedEntry {
  /** `## [X.Y.Z] - YYYY-MM-DD` followed by the body. */
  entry: string;
  /** The release notes: the entry without its heading. */
  body: string;
  source: 'unreleased' | 'generated';
}

/** The entry for `version`: the curated `[Unreleased]` body when there is one, else the generated summary. */
export function draftEntry(
  version: string,
  date: string,
  changelogText: string,
  changes: readonly ClassifiedCommit[],
): DraftedEntry {
  const curated = unreleasedBody(changelogText);
  const body = curated ?? generatedSummary(changes);
  return {
    entry: `${versionHeading(version, date)}\n\n${body}\n`,
    body,
    source: curated ? 'unreleased' : 'generated',
  };
}

export const versionHeading = (version: string, date: string): string => `## [${version}] - ${date}`;

/** Whether the file already has a section for `version` (a stamp that must not happen twice). */
export function hasVersionSection(text: string, version: string): boolean {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^##[ \\t]+\\[?v?${escaped}\\]?(?:[ \\t]|$)`, 'm').test(text);
}

/**
 * The file with `entry` stamped in: under an emptied `[Unreleased]` heading when there is one,
 * else under a new one before the first version section (or the end). An empty file becomes a
 * fresh changelog. Stamping a version already present changes nothing.
 */
export function stampChangelog(text: string, version: string, entry: string): string {
  if (hasVersionSection(text, version)) return text;
  const block = `${entry.trim()}\n`;
  if (!text.trim()) return `# Changelog\n\n## [Unreleased]\n\n${block}`;
  const section = findUnreleased(text);
  if (section) {
    const heading = text.slice(section.start, section.bodyStart).trimEnd();
    const rest = text.slice(section.end);
    return `${text.slice(0, section.start)}${heading}\n\n${block}${rest ? `\n${rest}` : ''}`;
  }
  const first = SECTION_HEADING.exec(text);
  if (first) {
    return `${text.slice(0, first.index)}## [Unreleased]\n\n${block}\n${text.slice(first.index)}`;
  }
  return `${text.trimEnd()}\n\n## [Unreleased]\n\n${block}`;
}

/** The body of the `## [version]` section (what a stamped release says), or null when there is none. */
export function versionSection(text: string, version: string): string | null {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const heading = new RegExp(`^##[ \\t]+\\[?v?${escaped}\\]?(?:[ \\t].*)?$`, 'm').exec(text);
  if (!heading) return null;
  const bodyStart = heading.index + heading[0].length;
  const next = SECTION_HEADING.exec(text.slice(bodyStart));
  const lines = text
    .slice(bodyStart, next ? bodyStart + next.index : text.length)
    .trimEnd()
    .split('\n');
  // The file's trailing link definitions (`[0.29.0]: https://…`) belong to no section.
  while (lines.length && /^\[[^\]]+\]:\s*\S+/.test(lines.at(-1)!)) lines.pop();
  const body = lines.join('\n').trim();
  return body || null;
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export const isoDate = (at: Date): string => at.toISOString().slice(0, 10);
