import { describe, expect, it } from 'vitest';
import {
  type PlaceholderValues,
  parseCommandTemplate,
  renderArgv,
  renderEnv,
  TemplateError,
} from './command-template.js';
import { BUILTIN_PROVIDERS, resolveProviders } from './providers.js';

const values: PlaceholderValues = {
  prompt: 'Fix the "login" bug; don\'t touch $HOME',
  prompt_file: '/tmp/run/prompt.md',
  mcp_config: '/tmp/run/mcp.json',
  model: 'opus',
  workspace: '/work/tree',
  run_dir: '/tmp/run',
  agent_slug: 'be-dev-1',
  mcp_command: '"/usr/bin/node"',
  mcp_args: '["/app/main.js","agent-tools","--role","developer"]',
  mcp_env_vars: '["GAFFER_AGENT_TOKEN"]',
  claude_tools: 'Read,Grep,Glob',
  codex_features: '{shell_tool=false}',
  openai_base_url: 'https://api.openai.com/v1',
};
const render = (template: string, overrides: Partial<PlaceholderValues> = {}) =>
  renderArgv(parseCommandTemplate(template), { ...values, ...overrides });

describe('command templates', () => {
  it('fills placeholders per argv word, so a prompt with spaces and quotes stays one argument', () => {
    expect(render(`agent -p {prompt} --file={prompt_file} "in {workspace}/x" '{run_dir}'`)).toEqual([
      'agent',
      '-p',
      values.prompt,
      '--file=/tmp/run/prompt.md',
      'in /work/tree/x',
      '/tmp/run',
    ]);
  });

  it('drops an absent model together with the option before it', () => {
    expect(render('agent --model {model} -v', { model: null })).toEqual(['agent', '-v']);
    expect(render('agent --model={model} -v', { model: null })).toEqual(['agent', '-v']);
    expect(render('agent -x value {model}', { model: null })).toEqual(['agent', '-x', 'value']);
    expect(render('agent --model {model}')).toEqual(['agent', '--model', 'opus']);
  });

  it('keeps literal braces: doubled, or around something that is not a placeholder name', () => {
    expect(render(`agent {{prompt}} -c 'env={A="x"}'`)).toEqual(['agent', '{prompt}', '-c', 'env={A="x"}']);
  });

  it.each([
    ['agent {promt}', 'unknown placeholder {promt}'],
    ['', 'empty'],
    ['{prompt_file}', 'must start with a program'],
    ["agent 'open", 'unterminated single quote'],
  ])('refuses %j', (template, message) => {
    expect(() => parseCommandTemplate(template)).toThrow(TemplateError);
    expect(() => parseCommandTemplate(template)).toThrow(message);
  });

  it('fills environment entries and drops those with an absent value', () => {
    expect(renderEnv({ SETTINGS: '{mcp_config}', MODEL: '{model}' }, { ...values, model: null })).toEqual({
      SETTINGS: '/tmp/run/mcp.json',
    });
  });

  it('renders the built-in Claude Code, Codex and Gemini CLI commands', () => {
    const providers = resolveProviders();
    const argvOf = (name: string) => renderArgv(parseCommandTemplate(providers[name]?.command ?? ''), values);
    expect(argvOf('claude')).toEqual([
      'claude',
      '-p',
      values.prompt,
      '--mcp-config',
      '/tmp/run/mcp.json',
      '--strict-mcp-config',
      '--tools',
      'Read,Grep,Glob',
      '--allowedTools',
      'mcp__gaffer,Read,Grep,Glob',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'opus',
    ]);
    expect(argvOf('codex')).toContain(
      'mcp_servers.gaffer.args=["/app/main.js","agent-tools","--role","developer"]',
    );
    expect(argvOf('codex').at(-1)).toBe(values.prompt);
    expect(argvOf('gemini').slice(0, 3)).toEqual(['gemini', '--prompt', values.prompt]);
    expect(renderEnv(providers.gemini?.env ?? {}, values)).toEqual({
      GEMINI_CLI_HOME: '/tmp/run',
    });
  });

  it('lets configuration replace a built-in command (keeping its environment) and add new providers', () => {
    const providers = resolveProviders({
      gemini: 'gemini-nightly -p {prompt}',
      Custom: 'my-agent {prompt_file}',
    });
    expect(providers.gemini).toEqual({ ...BUILTIN_PROVIDERS.gemini, command: 'gemini-nightly -p {prompt}' });
    expect(providers.custom?.command).toBe('my-agent {prompt_file}');
    expect(providers.claude).toEqual(BUILTIN_PROVIDERS.claude);
    expect(() => resolveProviders({ custom: 'my-agent {prompt_fil}' })).toThrow(
      'provider custom: unknown placeholder',
    );
    expect(() => resolveProviders({ 'no spaces': 'x' })).toThrow('not a provider name');
  });
});
