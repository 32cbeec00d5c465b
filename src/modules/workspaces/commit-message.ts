/**
 * Commit messages through the `commit` tool (reference A §9.9): the subject must say something
 * (at least 20 characters, not a bare "wip" / "fix" / "update"…), AI attribution lines and any
 * task prefix the agent typed are dropped, and the message is prefixed `[<id8>] `.
 */
import { id8 } from './branch-names.js';

export const COMMIT_MESSAGE_LIMITS = { subjectMin: 20, subjectMax: 200, totalMax: 10_000 } as const;

/** Words that alone (or only with each other) say nothing about a change. */
const MEANINGLESS = new Set([
  'wip',
  'tmp',
  'temp',
  'asdf',
  'oops',
  'fix',
  'fixes',
  'fixed',
  'update',
  'updates',
  'updated',
  'change',
  'changes',
  'stuff',
  'things',
  'misc',
  'test',
  'tbd',
  'todo',
]);

/** Words that add nothing on their own: a subject of only these and the above says nothing. */
const FILLER = new Set([
  'and',
  'or',
  'the',
  'a',
  'an',
  'some',
  'more',
  'minor',
  'small',
  'various',
  'of',
  'to',
  'feat',
  'chore',
]);

const ATTRIBUTION = [
  /^co-authored-by:.*\b(claude|anthropic|openai|chatgpt|copilot|gemini|codex|noreply@anthropic\.com)\b/i,
  /generated (with|by) .*\b(claude|ai|chatgpt|copilot|gemini|codex)\b/i,
  /^🤖/u,
];

/** `[id8] ` or `[F-xxxx]`-style bracket prefixes an agent may have typed itself. */
const TYPED_PREFIX = /^(\s*\[[^\]\n]{1,40}\]\s*)+/;

export type CommitMessageProblem =
  | { code: 'commit_message_empty'; message: string }
  | { code: 'commit_message_too_short'; message: string }
  | { code: 'commit_message_meaningless'; message: string }
  | { code: 'commit_message_too_long'; message: string };

/** The final message (`[id8] subject`, blank line, body) or why the agent's text is refused. */
export function prepareCommitMessage(
  raw: string,
  taskId: string,
): { ok: true; message: string; subject: string } | { ok: false; problem: CommitMessageProblem } {
  if (raw.length > COMMIT_MESSAGE_LIMITS.totalMax) {
    return refuse('commit_message_too_long', `at most ${COMMIT_MESSAGE_LIMITS.totalMax} characters`);
  }
  const lines = raw
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((line) => !ATTRIBUTION.some((pattern) => pattern.test(line.trim())));
  while (lines.length > 0 && !lines[0]!.trim()) lines.shift();
  const subject = (lines.shift() ?? '').replace(TYPED_PREFIX, '').trim();
  const body = lines.join('\n').trim();
  if (!subject) return refuse('commit_message_empty', 'the commit message is empty');
  if (subject.length < COMMIT_MESSAGE_LIMITS.subjectMin) {
    return refuse(
      'commit_message_too_short',
      `the subject must be at least ${COMMIT_MESSAGE_LIMITS.subjectMin} characters and say what changed`,
    );
  }
  if (subject.length > COMMIT_MESSAGE_LIMITS.subjectMax) {
    return refuse(
      'commit_message_too_long',
      `the subject must be at most ${COMMIT_MESSAGE_LIMITS.subjectMax} characters`,
    );
  }
  const words = subject.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  if (words.every((word) => MEANINGLESS.has(word) || FILLER.has(word))) {
    return refuse('commit_message_meaningless', 'the subject must say what changed, not just "wip" or "fix"');
  }
  const prefixed = `[${id8(taskId)}] ${subject}`;
  return { ok: true, subject: prefixed, message: body ? `${prefixed}\n\n${body}\n` : `${prefixed}\n` };
}

function refuse(code: CommitMessageProblem['code'], message: string) {
  return { ok: false as const, problem: { code, message } as CommitMessageProblem };
}
