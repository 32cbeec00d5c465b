import { describe, expect, it } from 'vitest';
import {
  type FieldSpec,
  fieldProblems,
  ladderProblem,
  listEntries,
  projectDraftProblems,
  serverFieldErrors,
} from './rules';

const draft = {
  slug: 'shop-api',
  name: 'Shop API',
  git_url: 'https://github.com/acme/shop-api.git',
  git_provider: '',
  forge_api_url: '',
  default_branch: '',
  git_token: '',
};

describe('project form rules', () => {
  it('refuses a bad slug and missing name or URL before sending', () => {
    expect(projectDraftProblems(draft)).toEqual({});
    expect(projectDraftProblems({ ...draft, slug: 'Shop API', name: ' ', git_url: '' })).toEqual({
      slug: 'Use 1–50 characters: a-z, 0-9 and -.',
      name: 'Give the project a name.',
      git_url: 'Enter the repository URL (https://…, git@…, or a local path).',
    });
  });

  it('checks a card: required unless nullable, lengths, and a budget above 0', () => {
    const fields: FieldSpec[] = [
      { key: 'name', label: 'Name', hint: '', kind: 'text', max: 5 },
      { key: 'ci_watch_workflow', label: 'Workflow', hint: '', kind: 'text', nullable: true },
      { key: 'monthly_budget_usd', label: 'Budget', hint: '', kind: 'money', nullable: true },
      { key: 'ci_watch_enabled', label: 'On', hint: '', kind: 'checkbox' },
    ];
    expect(
      fieldProblems(
        { name: 'ab', ci_watch_workflow: '', monthly_budget_usd: '', ci_watch_enabled: true },
        fields,
      ),
    ).toEqual({});
    expect(
      fieldProblems(
        { name: '', ci_watch_workflow: '', monthly_budget_usd: '-3', ci_watch_enabled: false },
        fields,
      ),
    ).toEqual({
      name: 'Name is required.',
      monthly_budget_usd: 'Enter an amount above 0, or leave it empty.',
    });
    expect(fieldProblems({ name: 'toolong', monthly_budget_usd: 'abc' }, fields)).toEqual({
      name: 'At most 5 characters.',
      monthly_budget_usd: 'Enter an amount above 0, or leave it empty.',
    });
  });

  it('reads a list field one entry per line or comma-separated, and leaves its entries to the server', () => {
    expect(listEntries(' pypi.org,files.pythonhosted.org\n\n  *.npmjs.org , ')).toEqual([
      'pypi.org',
      'files.pythonhosted.org',
      '*.npmjs.org',
    ]);
    expect(listEntries('  \n ')).toEqual([]);
    const allow: FieldSpec[] = [{ key: 'agent_network_allow', label: 'Allow', hint: '', kind: 'list' }];
    expect(fieldProblems({ agent_network_allow: '' }, allow)).toEqual({});
    expect(fieldProblems({ agent_network_allow: 'https://x.org/simple' }, allow)).toEqual({});
  });

  it('wants a ladder of two or more named, unique rungs (or none)', () => {
    expect(ladderProblem([])).toBeNull();
    expect(ladderProblem([{ name: 'dev', branch: 'dev' }])).toMatch(/at least two rungs/);
    expect(
      ladderProblem([
        { name: 'dev', branch: 'dev' },
        { name: 'prod', branch: '' },
      ]),
    ).toMatch(/name and a branch/);
    expect(
      ladderProblem([
        { name: 'dev', branch: 'main' },
        { name: 'prod', branch: 'main' },
      ]),
    ).toMatch(/unique/);
    expect(
      ladderProblem([
        { name: 'dev', branch: 'dev' },
        { name: 'prod', branch: 'prod' },
      ]),
    ).toBeNull();
  });

  it('puts the server’s field problems under their fields, and keeps the rest for the action', () => {
    const invalid = {
      error: {
        code: 'validation_failed',
        message: 'invalid',
        details: [
          { field: 'body.dep_update_paths', message: '"../x" must not contain ".."' },
          { field: 'body.environments.1.branch', message: 'must not be empty' },
        ],
      },
    };
    expect(serverFieldErrors(invalid)).toEqual({
      fields: { dep_update_paths: '"../x" must not contain ".."', environments: 'must not be empty' },
      problem: null,
    });
    const entries = {
      error: {
        code: 'validation_failed',
        message: 'invalid',
        details: [
          { field: 'body.agent_network_allow', message: '"https://x.org": write the host without a scheme' },
          { field: 'body.agent_network_allow', message: '"10.0.0.0/8": CIDR ranges are not supported' },
        ],
      },
    };
    expect(serverFieldErrors(entries).fields).toEqual({
      agent_network_allow:
        '"https://x.org": write the host without a scheme\n"10.0.0.0/8": CIDR ranges are not supported',
    });
    const taken = { error: { code: 'slug_taken', message: 'a project with slug "shop" already exists' } };
    expect(serverFieldErrors(taken).fields).toEqual({ slug: 'a project with slug "shop" already exists' });
    const other = { error: { code: 'forbidden', message: 'no' } };
    expect(serverFieldErrors(other)).toMatchObject({ fields: {}, problem: { code: 'forbidden' } });
    expect(serverFieldErrors(null)).toEqual({ fields: {}, problem: null });
  });
});
