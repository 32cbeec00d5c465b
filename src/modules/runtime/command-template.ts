/**
 * Command templates of the process runtime: a command line with `{placeholders}`, split into argv
 * with shell quoting rules (never run by a shell) and filled in per argv word, so a value with
 * spaces or quotes — a whole prompt — stays exactly one argument.
 *
 * - `{name}` is a placeholder; an unknown lowercase `{name}` is an error (catches typos early).
 *   `{{` and `}}` are literal braces; braces around anything else (`{A="x"}`) are literal too.
 * - A word holding a placeholder that has no value (only `{model}` may be absent) is dropped, and
 *   so is the option word right before it (`--model {model}` disappears whole; so does
 *   `--model={model}`).
 */
import { ShellWordsError, splitShellWords } from './shell-words.js';

export const PLACEHOLDERS = [
  /** The prompt text itself, as one argument. */
  'prompt',
  /** Path of the file holding the prompt. */
  'prompt_file',
  /** Path of the MCP configuration JSON (`{"mcpServers": {"gaffer": …}}`). */
  'mcp_config',
  /** The model; absent when the spawn names none. */
  'model',
  /** The agent's working directory (the task worktree). */
  'workspace',
  /** The run's private directory (prompt and MCP files live there; removed at exit). */
  'run_dir',
  'agent_slug',
  /** The MCP server's command as a JSON (and TOML) string, for CLIs configured by `-c key=value`. */
  'mcp_command',
  /** The MCP server's arguments as a JSON (and TOML) array of strings. */
  'mcp_args',
  /** The names of the environment variables the MCP server needs, as a JSON (and TOML) array. */
  'mcp_env_vars',
  /** Claude Code's built-in tools for the agent's role, comma-separated (role-reach.ts). */
  'claude_tools',
  /** Codex's `features` table for the agent's role, one TOML inline table (role-reach.ts). */
  'codex_features',
  /**
   * The OpenAI-compatible base URL the agent's model is served at: its route's, else the server's
   * OPENAI_BASE_URL, else OpenAI's own (for CLIs that take it only as configuration, like Codex).
   */
  'openai_base_url',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** Each placeholder's value; null means absent (the word carrying it is dropped). */
export type PlaceholderValues = Readonly<Record<Placeholder, string | null>>;

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const TOKEN = /\{\{|\}\}|\{([a-z_][a-z0-9_]*)\}/g;
const HAS_PLACEHOLDER = /\{[a-z_][a-z0-9_]*\}/;
const KNOWN = new Set<string>(PLACEHOLDERS);

/** The placeholders a word uses, checked against the known ones. */
function placeholdersOf(word: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const match of word.matchAll(TOKEN)) {
    const name = match[1];
    if (name === undefined) continue;
    if (!KNOWN.has(name)) {
      throw new TemplateError(
        `unknown placeholder {${name}} (known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
      );
    }
    found.push(name as Placeholder);
  }
  return found;
}

/** Splits and checks a template; throws TemplateError on bad quoting, an unknown placeholder or no command. */
export function parseCommandTemplate(template: string): string[] {
  let words: string[];
  try {
    words = splitShellWords(template);
  } catch (error) {
    if (error instanceof ShellWordsError) throw new TemplateError(error.message);
    throw error;
  }
  if (words.length === 0) throw new TemplateError('the command template is empty');
  for (const word of words) placeholdersOf(word);
  // `{workspace}/bin/agent` is fine; a command that is only a placeholder is not a command.
  if ((words[0] as string).replace(TOKEN, '') === '') {
    throw new TemplateError('the command template must start with a program, not a placeholder');
  }
  return words;
}

/** One word with its placeholders filled in, or null when one of them has no value. */
export function fillWord(word: string, values: PlaceholderValues): string | null {
  let absent = false;
  const filled = word.replace(TOKEN, (token, name: string | undefined) => {
    if (name === undefined) return token === '{{' ? '{' : '}';
    const value = values[name as Placeholder];
    if (value === null || value === undefined) {
      absent = true;
      return '';
    }
    return value;
  });
  return absent ? null : filled;
}

const isBareOption = (word: string) =>
  word.startsWith('-') && !word.includes('=') && !HAS_PLACEHOLDER.test(word);

/** The argv of a parsed template, placeholders filled per word (see the file comment for absent values). */
export function renderArgv(words: readonly string[], values: PlaceholderValues): string[] {
  const argv: string[] = [];
  let previousWasBareOption = false;
  for (const word of words) {
    const bare = isBareOption(word);
    const filled = fillWord(word, values);
    if (filled === null) {
      if (previousWasBareOption) argv.pop();
      previousWasBareOption = false;
      continue;
    }
    argv.push(filled);
    previousWasBareOption = bare;
  }
  return argv;
}

/** Environment entries of a template (values filled the same way; an absent value drops the entry). */
export function renderEnv(
  entries: Readonly<Record<string, string>>,
  values: PlaceholderValues,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, template] of Object.entries(entries)) {
    placeholdersOf(template);
    const filled = fillWord(template, values);
    if (filled !== null) env[name] = filled;
  }
  return env;
}
