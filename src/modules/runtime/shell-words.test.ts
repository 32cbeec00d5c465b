import { describe, expect, it } from 'vitest';
import { ShellWordsError, splitShellWords } from './shell-words.js';

describe('splitShellWords', () => {
  it.each([
    ['claude -p {prompt}', ['claude', '-p', '{prompt}']],
    ['  spaced \t out\n words ', ['spaced', 'out', 'words']],
    [`say 'hello world' "and \\"you\\""`, ['say', 'hello world', 'and "you"']],
    [`'it''s' "a"b'c'`, ['its', 'abc']],
    [`one\\ word`, ['one word']],
    [`"" ''`, ['', '']],
    [`'$HOME and \\n stay' "$HOME \\$x \\n"`, ['$HOME and \\n stay', '$HOME $x \\n']],
    [`--allowed "Read Edit" --flag=value`, ['--allowed', 'Read Edit', '--flag=value']],
    ['a\\\nb', ['ab']],
    ['', []],
    ["echo 'x | y > z; rm -rf /'", ['echo', 'x | y > z; rm -rf /']],
  ])('%j → %j', (line, words) => {
    expect(splitShellWords(line)).toEqual(words);
  });

  it.each([
    [`say 'unterminated`, 'unterminated single quote'],
    [`say "unterminated`, 'unterminated double quote'],
    ['trailing\\', 'lone backslash'],
  ])('refuses %j', (line, message) => {
    expect(() => splitShellWords(line)).toThrow(ShellWordsError);
    expect(() => splitShellWords(line)).toThrow(message);
  });
});
