import { describe, expect, it } from 'vitest';
import {
  draftEntry,
  generatedSummary,
  hasVersionSection,
  isoDate,
  stampChangelog,
  unreleasedBody,
  versionSection,
} from './changelog.js';
import { classifyCommit } from './classify.js';

const changes = [
  'feat(kanban): drag cards (#12)',
  'fix: the pause banner clears (#13)',
  'security: pin guard-core ≥ 3.12.0',
  'chore(deps): bump vitest',
  'feat!: drop the v1 API',
  'Update README',
].map((subject, index) => classifyCommit({ sha: `${index}`.repeat(8), subject, body: '' }));

const CURATED = `# Changelog

All notable changes.

## [Unreleased]

### Added
- The release manager.

## [0.29.0] - 2026-08-21

### Added
- Operator maintenance pause.

[0.29.0]: https://example.test/compare/v0.28.0...v0.29.0
`;

const EMPTY_UNRELEASED = `# Changelog

## [Unreleased]

## [0.29.0] - 2026-08-21

- Pause.
`;

describe('the CHANGELOG', () => {
  it('reads the curated [Unreleased] body, or none when it is blank or absent', () => {
    expect(unreleasedBody(CURATED)).toBe('### Added\n- The release manager.');
    expect(unreleasedBody(EMPTY_UNRELEASED)).toBeNull();
    expect(unreleasedBody('# Changelog\n\n## [1.0.0] - 2020-01-01\n- x\n')).toBeNull();
    expect(unreleasedBody('## Unreleased\n\n- loose heading style\n')).toBe('- loose heading style');
  });

  it('generates a summary grouped by kind, breaking changes marked, PR numbers kept once', () => {
    expect(generatedSummary(changes)).toBe(
      [
        '### Added',
        '',
        '- **kanban:** drag cards (#12)',
        '- **BREAKING** drop the v1 API',
        '',
        '### Fixed',
        '',
        '- the pause banner clears (#13)',
        '',
        '### Security',
        '',
        '- pin guard-core ≥ 3.12.0',
        '',
        '### Changed',
        '',
        '- **deps:** bump vitest',
        '- Update README',
      ].join('\n'),
    );
    expect(generatedSummary([])).toBe('- Maintenance release.');
  });

  it('drafts from the curated body when there is one, else from the commits', () => {
    const curated = draftEntry('0.30.0', '2026-09-01', CURATED, changes);
    expect(curated.source).toBe('unreleased');
    expect(curated.entry).toBe('## [0.30.0] - 2026-09-01\n\n### Added\n- The release manager.\n');
    const generated = draftEntry('0.30.0', '2026-09-01', EMPTY_UNRELEASED, changes);
    expect(generated.source).toBe('generated');
    expect(generated.body).toContain('drag cards (#12)');
  });

  it('stamps the entry under an emptied [Unreleased], keeping the rest byte for byte', () => {
    const entry = draftEntry('0.30.0', '2026-09-01', CURATED, changes).entry;
    const stamped = stampChangelog(CURATED, '0.30.0', entry);
    expect(stamped).toBe(`# Changelog

All notable changes.

## [Unreleased]

## [0.30.0] - 2026-09-01

### Added
- The release manager.

## [0.29.0] - 2026-08-21

### Added
- Operator maintenance pause.

[0.29.0]: https://example.test/compare/v0.28.0...v0.29.0
`);
    expect(unreleasedBody(stamped)).toBeNull();
    expect(stampChangelog(stamped, '0.30.0', entry)).toBe(stamped);
  });

  it('adds an [Unreleased] section when the file has none, and starts an empty file', () => {
    const noUnreleased = '# Changelog\n\n## [1.0.0] - 2020-01-01\n- first\n';
    expect(stampChangelog(noUnreleased, '1.1.0', '## [1.1.0] - 2020-02-02\n\n- x\n')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [1.1.0] - 2020-02-02\n\n- x\n\n## [1.0.0] - 2020-01-01\n- first\n',
    );
    expect(stampChangelog('', '0.1.0', '## [0.1.0] - 2020-01-01\n\n- x\n')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2020-01-01\n\n- x\n',
    );
    expect(stampChangelog('# Changelog\n', '0.1.0', '## [0.1.0] - d\n\n- x\n')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - d\n\n- x\n',
    );
  });

  it('reads a version’s section back (what a resumed release publishes)', () => {
    expect(versionSection(CURATED, '0.29.0')).toBe('### Added\n- Operator maintenance pause.');
    expect(versionSection(EMPTY_UNRELEASED, '0.29.0')).toBe('- Pause.');
    expect(versionSection(CURATED, '0.30.0')).toBeNull();
  });

  it('knows which versions it already has', () => {
    expect(hasVersionSection(CURATED, '0.29.0')).toBe(true);
    expect(hasVersionSection(CURATED, '0.29.1')).toBe(false);
    expect(hasVersionSection(CURATED, '0.2')).toBe(false);
    expect(isoDate(new Date('2026-09-01T23:59:59Z'))).toBe('2026-09-01');
  });
});
