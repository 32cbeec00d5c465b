/**
 * The slice of a file `GET /api/git/file` answers with, as pure rules. Three ways to ask:
 * nothing (the whole file), `line` with an optional `context` (the lines around it), or an
 * explicit `start`/`end` range (either bound may be left out: from the first line, up to the last).
 * No answer holds more than 2000 lines; `truncated` says the cap left out lines of the range that
 * was asked for (clamped to the file), so the next page starts at `end_line + 1`.
 */
import type { FieldProblem } from '../../platform/http/errors.js';

export const FILE_WINDOW = {
  /** Lines one answer holds at most. */
  maxLines: 2000,
  /** Lines either side of `line` when `context` is not given. */
  defaultContext: 50,
  /** At most this many either side, so a window around a line always fits one answer. */
  maxContext: 999,
} as const;

export interface WindowRequest {
  line?: number | undefined;
  context?: number | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

export interface FileWindow {
  /** First line answered (1-based). */
  start: number;
  /** Last line answered; `start - 1` when there is none (an empty file). */
  end: number;
  truncated: boolean;
}

/** The file's lines: split on `\n`, a final newline ending the last line rather than starting another. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Problems of the request itself, before the file is read (conflicting or reversed bounds). */
export function windowRequestProblems(request: WindowRequest): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const ranged = request.start !== undefined || request.end !== undefined;
  if (request.line !== undefined && ranged) {
    problems.push({ field: 'query.line', message: 'give either line (with context) or start/end, not both' });
  }
  if (request.context !== undefined && request.line === undefined) {
    problems.push({ field: 'query.context', message: 'context applies to a line; give line too' });
  }
  if (request.start !== undefined && request.end !== undefined && request.start > request.end) {
    problems.push({
      field: 'query.start',
      message: `start (${request.start}) is after end (${request.end})`,
    });
  }
  return problems;
}

/** The window of a file of `totalLines` lines, or the problem with the request (a bound past the end). */
export function planWindow(
  request: WindowRequest,
  totalLines: number,
): { window: FileWindow } | { problem: FieldProblem } {
  const last = Math.max(totalLines, 1);
  if (request.line !== undefined) {
    if (request.line > last) {
      return { problem: pastTheEnd('query.line', `line ${request.line}`, totalLines) };
    }
    const context = request.context ?? FILE_WINDOW.defaultContext;
    return {
      window: {
        start: Math.max(1, request.line - context),
        end: Math.min(totalLines, request.line + context),
        truncated: false,
      },
    };
  }
  const start = request.start ?? 1;
  if (start > last) return { problem: pastTheEnd('query.start', `start ${start}`, totalLines) };
  const asked = Math.min(request.end ?? totalLines, totalLines);
  const end = Math.min(asked, start + FILE_WINDOW.maxLines - 1);
  return { window: { start, end, truncated: end < asked } };
}

function pastTheEnd(field: string, what: string, totalLines: number): FieldProblem {
  return { field, message: `${what} is past the end of the file (${totalLines} lines)` };
}
