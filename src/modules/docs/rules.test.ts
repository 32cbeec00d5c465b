import { describe, expect, it } from 'vitest';
import { pathProblem, sizeProblem, writeProblem } from './rules.js';

const rule = (problem: { rule: string } | null) => problem?.rule ?? null;

describe('doc path rules', () => {
  it('accepts plain text paths under docs/ and names what is wrong with the others', () => {
    expect(pathProblem('docs/api/limits.md')).toBeNull();
    expect(pathProblem('docs/README.rst')).toBeNull();
    expect(rule(pathProblem('docs/./a.md'))).toBe('plain_relative_path');
    expect(rule(pathProblem('docs//a.md'))).toBe('plain_relative_path');
    expect(rule(pathProblem('docs\\a.md'))).toBe('plain_relative_path');
    expect(rule(pathProblem('docs/a/../../x.md'))).toBe('plain_relative_path');
    expect(rule(pathProblem('README.md'))).toBe('under_docs');
    expect(rule(pathProblem('docs/logo.png'))).toBe('text_extension');
    expect(rule(pathProblem(`docs/${'a'.repeat(260)}.md`))).toBe('path_too_long');
    expect(rule(sizeProblem('é'.repeat(300_000)))).toBe('size_cap');
    expect(sizeProblem('# ok')).toBeNull();
  });

  it('lets each role write only its folders, and only in its own cell', () => {
    const dev = { role: 'developer', team: 'backend' };
    expect(writeProblem(dev, 'docs/architecture/adr-1.md', 'backend')).toBeNull();
    expect(rule(writeProblem(dev, 'docs/qa/plan.md', 'backend'))).toBe('folder_by_role');
    expect(rule(writeProblem(dev, 'docs/api/x.md', 'frontend'))).toBe('own_cell');
    expect(writeProblem({ role: 'documenter', team: 'ux_ui' }, 'docs/changelog.md', 'ux_ui')).toBeNull();
    expect(writeProblem({ role: 'ceo', team: 'board' }, 'docs/internal/x.md', 'frontend')).toBeNull();
    expect(rule(writeProblem({ role: 'auditor', team: 'board' }, 'docs/x.md', 'backend'))).toBe(
      'role_writes_docs',
    );
    expect(rule(writeProblem({ role: 'main_pm', team: 'main_pm' }, 'docs/x.md', 'main_pm'))).toBe(
      'role_writes_docs',
    );
  });
});
