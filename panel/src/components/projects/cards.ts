/** The field lists of the project page's cards: each with its one-line explanation and default. */
import type { FieldSpec } from './fields-card';
import { GIT_PROVIDERS } from './types';

export const REPOSITORY_FIELDS: readonly FieldSpec[] = [
  { key: 'name', label: 'Name', hint: 'What people call it.', kind: 'text', max: 100 },
  {
    key: 'default_branch',
    label: 'Default branch',
    hint: 'Where pull requests land when there is no ladder.',
    kind: 'text',
    placeholder: 'main',
    max: 200,
    mono: true,
  },
  {
    key: 'git_url',
    label: 'Git URL',
    hint: 'https://host/owner/repo.git, git@host:owner/repo.git or a local bare repository; no credentials (use the token).',
    kind: 'text',
    max: 500,
    mono: true,
    wide: true,
  },
  {
    key: 'git_provider',
    label: 'Provider',
    hint: 'Which forge API to call; automatic infers it from the URL.',
    kind: 'select',
    nullable: true,
    options: [{ value: '', label: 'Automatic' }, ...GIT_PROVIDERS.map((p) => ({ value: p, label: p }))],
  },
  {
    key: 'forge_api_url',
    label: 'Forge API URL',
    hint: 'Only for GitHub Enterprise or Gitea hosts (https); empty = the provider’s default.',
    kind: 'text',
    nullable: true,
    max: 500,
    placeholder: "(the provider's default)",
    mono: true,
  },
];

export const BUDGET_OPS_FIELDS: readonly FieldSpec[] = [
  {
    key: 'ci_watch_enabled',
    label: 'Watch CI on the default branch (CI-watch)',
    hint: 'When CI goes red, the engine opens one fix task here and tells the cell PM; it never merges or deploys. Needs the Multi-repo CI-watch flag.',
    kind: 'checkbox',
  },
  {
    key: 'ci_watch_workflow',
    label: 'CI-watch workflow',
    hint: 'The workflow file whose runs are the CI signal; empty = ci.yml.',
    kind: 'text',
    nullable: true,
    placeholder: 'ci.yml',
    defaultValue: 'ci.yml',
    max: 300,
    mono: true,
  },
  {
    key: 'dep_update_command',
    label: 'Dependency update command',
    hint: 'Run in a throwaway clone to refresh the lockfiles; empty = the dependency bot opens nothing here.',
    kind: 'text',
    nullable: true,
    placeholder: 'e.g. npm update --package-lock-only',
    max: 4000,
    mono: true,
    wide: true,
  },
  {
    key: 'dep_update_paths',
    label: 'Lockfile paths',
    hint: 'Comma-separated lockfiles the bot diffs, relative to the repository; empty = inferred from the package manager.',
    kind: 'text',
    nullable: true,
    placeholder: 'inferred (e.g. package-lock.json)',
    max: 2000,
    mono: true,
  },
  {
    key: 'monthly_budget_usd',
    label: 'Monthly budget (USD)',
    hint: 'The spend this project may use in a month; empty = no budget.',
    kind: 'money',
    nullable: true,
    placeholder: 'none',
  },
  {
    key: 'agent_network_allow',
    label: 'Agent network allowlist',
    hint: 'Hosts agents of this project may reach besides their model: package registries and the like — a host, an address, host:port or *.domain; no schemes or paths. One per line or comma-separated.',
    kind: 'list',
    placeholder: 'e.g. registry.npmjs.org\npypi.org\nfiles.pythonhosted.org',
    wide: true,
  },
];

const command = (key: FieldSpec['key'], label: string, hint: string, placeholder: string): FieldSpec => ({
  key,
  label,
  hint,
  kind: 'text',
  nullable: true,
  placeholder,
  max: 4000,
  mono: true,
});

export const COMMAND_FIELDS: readonly FieldSpec[] = [
  command(
    'test_command',
    'Test command',
    'What QA and the engines run to test; empty = none.',
    'e.g. npm test',
  ),
  command('build_command', 'Build command', 'How the project builds; empty = none.', 'e.g. npm run build'),
  command('lint_command', 'Lint command', 'Run before a submit; empty = none.', 'e.g. npm run lint'),
  command(
    'typecheck_command',
    'Type-check command',
    'Run before a submit; empty = none.',
    'e.g. npx tsc --noEmit',
  ),
  {
    ...command(
      'quality_command',
      'Quality gate command',
      'A fast pre-submit gate; when set it replaces lint and type-check.',
      'e.g. npm run check',
    ),
    wide: true,
  },
];
