/**
 * One way for every `gaffer` command to read its arguments: `--help` (or `-h`) prints the command's
 * usage and exits 0; an unknown option or a misplaced argument is one line plus the usage, exit 2.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { COMMAND_USAGE } from './usage.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export type Parsed<O extends Options> =
  | {
      ok: true;
      values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
      positionals: string[];
    }
  | { ok: false; exitCode: number };

/** Asked for help anywhere before a `--`. */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** A failure of `command`'s arguments: one line, the usage, exit code 2. */
export function usageError(command: string, message: string): { ok: false; exitCode: number } {
  console.error(`gaffer ${command}: ${message}\n\n${COMMAND_USAGE[command] ?? ''}`);
  return { ok: false, exitCode: 2 };
}

export function parseCommand<O extends Options>(
  command: string,
  args: string[],
  options: O,
  maxPositionals = 0,
): Parsed<O> {
  if (wantsHelp(args)) {
    console.log(COMMAND_USAGE[command]);
    return { ok: false, exitCode: 0 };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options: { ...options, debug: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    // Node's messages are long ("… To specify a positional argument starting with a '-' …"): keep the first sentence.
    const message = (error as Error).message.split(/\.\s/)[0]!.replace(/\.$/, '');
    return usageError(command, message.replace(/^Unknown option/, 'unknown option'));
  }
  if (parsed.positionals.length > maxPositionals) {
    return usageError(command, `unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  return { ok: true, values: parsed.values as never, positionals: parsed.positionals };
}
