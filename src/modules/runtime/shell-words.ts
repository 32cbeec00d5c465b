/**
 * Splits a command line into argv words with POSIX shell quoting rules — and nothing else of the
 * shell: no variables, globs, pipes or redirections, so a command template is never run by a shell.
 *
 * - Unquoted whitespace separates words; a backslash takes the next character literally.
 * - 'single quotes' keep everything literally (no escapes inside).
 * - "double quotes" keep everything except `\"`, `\\`, `\$` and `` \` `` (the backslash is dropped)
 *   and a backslash-newline (both dropped).
 * - `''` or `""` is an empty word.
 */

export class ShellWordsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellWordsError';
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPABLE_IN_DOUBLE = new Set(['"', '\\', '$', '`']);

export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const char = line[i] as string;
    if (WHITESPACE.has(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (char === '\\') {
      if (i + 1 >= line.length) throw new ShellWordsError('the command ends with a lone backslash');
      const next = line[i + 1] as string;
      // An unquoted backslash-newline is a line continuation: both vanish.
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShellWordsError(`unterminated single quote at position ${i}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (char === '"') {
      const start = i;
      i += 1;
      for (;;) {
        if (i >= line.length) throw new ShellWordsError(`unterminated double quote at position ${start}`);
        const inner = line[i] as string;
        if (inner === '"') break;
        if (inner === '\\' && i + 1 < line.length) {
          const next = line[i + 1] as string;
          if (ESCAPABLE_IN_DOUBLE.has(next)) {
            word += next;
            i += 2;
            continue;
          }
          if (next === '\n') {
            i += 2;
            continue;
          }
        }
        word += inner;
        i += 1;
      }
      inWord = true;
      i += 1;
    } else {
      word += char;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}
