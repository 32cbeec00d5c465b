/**
 * Changes (`/tasks/{id}/changes`, the task page's Changes tab): what the task changes, as a reviewer
 * reads it before approving — whether it merges cleanly into its base (or which files conflict),
 * "+N −M in K files", what CI says of the head commit, the files with their counts, the commits, and the diff line by line with
 * both line numbers, syntax-highlighted (highlight.tsx), unified or split (`?view=split`, the old side
 * beside the new). The diff draws only the rows on screen (@tanstack/react-virtual over the rows
 * of diff-rows.ts), so a change of ten thousand lines scrolls smoothly. `n` / `p` jump to the next
 * and previous file, `j` / `k` to the next and previous hunk; lock and generated files start folded; a file cut short by the server's caps
 * loads whole on a click. On a phone or a tablet: the summary, the files as a list to jump from, the
 * unified diff (split is for desktop widths) with long lines scrolling inside it, then the commits.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { $api } from '../../../api/client';
import { useWideScreen } from '../../../lib/use-wide-screen';
import { Button } from '../../ui/button';
import { EmptyState, Loading } from '../../ui/page';
import { ProblemNote } from '../../ui/problem-note';
import { RelativeTime } from '../../ui/time';
import {
  type Change,
  type ChangedFile,
  changeSummary,
  type DiffMode,
  diffRows,
  type Line,
  type Row,
  rowIndexes,
} from './diff-rows';
import { CodeLine } from './highlight';
import { useReview } from './use-review';

const ROW_HEIGHT = { file: 40, hunk: 26, line: 20, pair: 20, note: 26, finding: 44 } as const;
const STATUS_MARK: Record<ChangedFile['status'], string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
};

export function ChangesTab({ taskId }: { taskId: string }) {
  const change = $api.useQuery('get', '/api/tasks/{id}/changes', { params: { path: { id: taskId } } });
  if (change.error) {
    const code = (change.error as { error?: { code?: string } }).error?.code;
    if (code === 'no_branch' || code === 'branch_missing' || code === 'task_not_in_project')
      return <EmptyState>No change to review yet: nothing is committed on this task's branch.</EmptyState>;
    return <ProblemNote error={change.error} prefix="Could not read the change" />;
  }
  if (!change.data) return <Loading what="the change" />;
  return <ChangeView change={change.data} taskId={taskId} />;
}

function ChangeView({ change, taskId }: { change: Change; taskId: string }) {
  const [files, setFiles] = useState(change.files);
  useEffect(() => setFiles(change.files), [change.files]);
  /** The reviewer's fold of a file (path → folded), over the default. */
  const [folds, setFolds] = useState<ReadonlyMap<string, boolean>>(new Map());
  const review = useReview(taskId);
  const [search, setSearch] = useSearchParams();
  const wide = useWideScreen();
  const mode: DiffMode = wide && search.get('view') === 'split' ? 'split' : 'unified';
  const rows = useMemo(() => diffRows(files, folds, review.notes, mode), [files, folds, review.notes, mode]);
  const starts = useMemo(() => rowIndexes(rows, 'file'), [rows]);
  const hunks = useMemo(() => rowIndexes(rows, 'hunk'), [rows]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ROW_HEIGHT[rows[i]!.kind],
    overscan: 30,
    initialRect: { width: 900, height: 640 },
  });

  // The file the reviewer last went to (n / p move from it); -1 before the first.
  const current = useRef(-1);
  const goToFile = (index: number) => {
    const row = starts[index];
    if (row === undefined) return;
    current.current = index;
    virtualizer.scrollToIndex(row, { align: 'start' });
  };
  /** The next (or previous) hunk from the top row on screen. */
  const goToHunk = (step: 1 | -1) => {
    const top =
      virtualizer.getVirtualItems().find((item) => item.start >= (virtualizer.scrollOffset ?? 0))?.index ?? 0;
    const target = step === 1 ? hunks.find((row) => row > top) : hunks.findLast((row) => row < top);
    if (target !== undefined) virtualizer.scrollToIndex(target, { align: 'start' });
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        event.metaKey ||
        event.ctrlKey ||
        event.altKey ||
        target?.closest('input, textarea, select, [contenteditable]')
      )
        return;
      if (event.key === 'n') goToFile(Math.min(current.current + 1, starts.length - 1));
      else if (event.key === 'p') goToFile(Math.max(current.current - 1, 0));
      else if (event.key === 'j' || event.key === 'k') goToHunk(event.key === 'j' ? 1 : -1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const toggle = (file: ChangedFile, folded: boolean) =>
    setFolds((current) => new Map(current).set(file.path, !folded));
  const wholeFile = $api.useMutation('get', '/api/tasks/{id}/changes/file', {
    onSuccess: (whole) => setFiles((current) => current.map((f) => (f.path === whole.path ? whole : f))),
  });

  return (
    <div className="space-y-3" data-testid="task-changes">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg border border-border bg-surface px-3 py-2">
        {change.mergeable ? (
          <span className="font-medium text-ok" data-testid="change-mergeable">
            ✓ Merges cleanly into {change.base.branch}
          </span>
        ) : (
          <span className="font-medium text-danger-text" data-testid="change-conflicts">
            ✗ Conflicts with {change.base.branch} in {change.conflicts.join(', ')}
          </span>
        )}
        <span data-testid="change-summary">{changeSummary(change.totals)}</span>
        <CiVerdict taskId={taskId} />
        {review.verdicts.map((verdict) => (
          <span key={verdict.label} className={verdict.good ? 'text-ok' : 'text-danger-text'}>
            {verdict.label}
          </span>
        ))}
        <Link
          to={`/tasks/${taskId}?tab=findings`}
          className={review.open > 0 ? 'text-warn-text underline' : 'text-muted underline'}
        >
          {review.open} open finding{review.open === 1 ? '' : 's'}
        </Link>
        <span className="text-muted">
          {change.totals.commits} commit{change.totals.commits === 1 ? '' : 's'} ·{' '}
          <span className="font-mono text-xs">{change.head.branch}</span> →{' '}
          <span className="font-mono text-xs">{change.base.branch}</span>
        </span>
        <fieldset className="ml-auto hidden items-center gap-1 text-xs lg:flex" aria-label="Diff view">
          {(['unified', 'split'] as const).map((view) => (
            <button
              key={view}
              type="button"
              aria-pressed={mode === view}
              onClick={() =>
                setSearch(
                  (current) => {
                    const next = new URLSearchParams(current);
                    if (view === 'split') next.set('view', 'split');
                    else next.delete('view');
                    return next;
                  },
                  { replace: true },
                )
              }
              className={`rounded border px-2 py-0.5 ${mode === view ? 'border-accent font-semibold' : 'border-border text-muted'}`}
            >
              {view === 'unified' ? 'Unified' : 'Split'}
            </button>
          ))}
        </fieldset>
        <span className="text-xs text-muted">
          <span className="hidden lg:inline">
            Keys: <kbd>n</kbd>/<kbd>p</kbd> next/previous file, <kbd>j</kbd>/<kbd>k</kbd> hunk ·{' '}
          </span>
          read <RelativeTime at={change.computed_at} />
        </span>
      </header>
      {wholeFile.error && <ProblemNote error={wholeFile.error} prefix="Could not load the whole file" />}
      <div className="grid gap-3 lg:grid-cols-[16rem_1fr]">
        <aside className="min-w-0 space-y-3">
          <nav aria-label="Changed files" className="rounded-lg border border-border bg-surface p-1.5">
            <ul className="space-y-0.5">
              {files.map((file, index) => (
                <li key={file.path}>
                  <button
                    type="button"
                    onClick={() => goToFile(index)}
                    className="flex w-full items-center gap-1.5 rounded px-1.5 py-1 text-left text-[13px] hover:bg-surface-2"
                  >
                    <span className="w-3 shrink-0 font-mono text-xs text-muted">
                      {STATUS_MARK[file.status]}
                    </span>
                    <span className="min-w-0 flex-1 truncate font-mono text-xs" title={file.path}>
                      {file.path}
                    </span>
                    <Counts file={file} />
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <Commits commits={change.commits} className="hidden lg:block" />
        </aside>
        <section
          ref={scroller}
          aria-label="Diff"
          tabIndex={-1}
          className="h-[calc(100dvh-250px)] min-h-80 overflow-auto rounded-lg border border-border bg-surface"
        >
          <div className="relative min-w-max" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => (
              <div
                key={item.key}
                className="absolute inset-x-0"
                style={{ transform: `translateY(${item.start}px)`, height: item.size }}
              >
                <RowView
                  row={rows[item.index]!}
                  onToggle={toggle}
                  onWhole={(file) =>
                    wholeFile.mutate({ params: { path: { id: taskId }, query: { path: file.path } } })
                  }
                  loadingWhole={wholeFile.isPending}
                />
              </div>
            ))}
          </div>
        </section>
        <Commits commits={change.commits} className="lg:hidden" />
      </div>
    </div>
  );
}

/** The commits of the change: beside the files on a wide screen, after the diff on a narrow one. */
function Commits({ commits, className }: { commits: Change['commits']; className: string }) {
  return (
    <section aria-label="Commits" className={`rounded-lg border border-border bg-surface p-2.5 ${className}`}>
      <h3 className="mb-1 text-[13px] font-semibold text-muted">Commits</h3>
      <ol className="space-y-1.5 text-[13px]">
        {commits.map((commit) => (
          <li key={commit.sha} className="break-words">
            <span className="font-mono text-xs text-muted">{commit.sha.slice(0, 7)}</span> {commit.subject}
            <span className="block text-xs text-muted">
              {commit.author.name} · <RelativeTime at={commit.time} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** What CI says of the head commit: the forge's checks, or "no CI" for a local project. */
const CI_LOOK: Record<string, { text: string; look: string }> = {
  success: { text: '● CI passed', look: 'text-ok' },
  failure: { text: '● CI failed', look: 'text-danger-text' },
  timed_out: { text: '● CI timed out', look: 'text-danger-text' },
  startup_failure: { text: '● CI could not start', look: 'text-danger-text' },
  cancelled: { text: '● CI cancelled', look: 'text-warn-text' },
  pending: { text: '● CI running', look: 'text-info' },
  unknown: { text: '○ no CI run on this commit', look: 'text-muted' },
};

function CiVerdict({ taskId }: { taskId: string }) {
  const ci = $api.useQuery('get', '/api/tasks/{id}/changes/ci', { params: { path: { id: taskId } } });
  if (!ci.data) return null;
  if (ci.data.conclusion === null)
    return (
      <span className="text-muted" data-testid="change-ci">
        ○ no CI (local project)
      </span>
    );
  const { text, look } = CI_LOOK[ci.data.conclusion] ?? CI_LOOK.unknown!;
  return ci.data.run_url ? (
    <a
      href={ci.data.run_url}
      className={`${look} underline`}
      data-testid="change-ci"
      title={ci.data.run_name ?? undefined}
    >
      {text}
    </a>
  ) : (
    <span className={look} data-testid="change-ci">
      {text}
    </span>
  );
}

const LINE_LOOK: Record<Line['kind'], string> = { add: 'bg-ok-bg', del: 'bg-danger-bg', context: '' };
const LINE_MARK: Record<Line['kind'], string> = { add: '+', del: '−', context: ' ' };

/** One side of a split row: its line number and text, or an empty side. */
function Side({
  line,
  number,
  language,
}: {
  line: Line | null;
  number: number | null;
  language: string | null;
}) {
  if (!line) return <div className="border-r border-border bg-surface-2" />;
  return (
    <div
      className={`grid min-w-0 grid-cols-[3.5rem_1.25rem_1fr] border-r border-border ${LINE_LOOK[line.kind]}`}
    >
      <span className="pr-2 text-right text-muted select-none">{number ?? ''}</span>
      <span className="text-muted select-none" aria-hidden="true">
        {LINE_MARK[line.kind]}
      </span>
      <span className="overflow-hidden pr-3 whitespace-pre">
        <CodeLine text={line.text} language={language} />
      </span>
    </div>
  );
}

function Counts({ file }: { file: ChangedFile }) {
  if (file.binary) return <span className="text-xs text-muted">binary</span>;
  return (
    <span className="shrink-0 font-mono text-xs">
      <span className="text-ok">+{file.additions}</span>{' '}
      <span className="text-danger-text">−{file.deletions}</span>
    </span>
  );
}

function RowView({
  row,
  onToggle,
  onWhole,
  loadingWhole,
}: {
  row: Row;
  onToggle: (file: ChangedFile, folded: boolean) => void;
  onWhole: (file: ChangedFile) => void;
  loadingWhole: boolean;
}) {
  switch (row.kind) {
    case 'file': {
      const { file } = row;
      return (
        <div
          className="flex h-full items-center gap-2 border-y border-border bg-surface-2 px-3"
          data-testid={`diff-file-${file.path}`}
        >
          <button
            type="button"
            aria-expanded={!row.folded}
            aria-label={`${row.folded ? 'Show' : 'Fold'} ${file.path}`}
            onClick={() => onToggle(file, row.folded)}
            className="w-5 text-muted hover:text-text"
          >
            {row.folded ? '▸' : '▾'}
          </button>
          <span className="font-mono text-xs font-semibold">
            {file.previous_path ? `${file.previous_path} → ${file.path}` : file.path}
          </span>
          <span className="text-xs text-muted">{file.status}</span>
          <Counts file={file} />
          {file.truncated && (
            <Button onClick={() => onWhole(file)} disabled={loadingWhole}>
              Load the whole file
            </Button>
          )}
        </div>
      );
    }
    case 'hunk':
      return (
        <div className="flex h-full items-center bg-info-bg px-3 font-mono text-xs text-info">
          {row.header}
        </div>
      );
    case 'note':
      return <div className="flex h-full items-center px-3 text-xs text-muted italic">{row.text}</div>;
    case 'finding': {
      const { note } = row;
      return (
        <div
          className="mx-3 my-1 flex h-[calc(100%-0.5rem)] items-center gap-2 overflow-hidden rounded border border-warn/40 bg-warn-bg px-2 text-xs text-warn-text"
          title={note.text}
          data-testid={`diff-finding-${note.id8}`}
        >
          <span className="shrink-0 font-semibold">
            {note.severity} · {note.status}
            {note.line !== null ? ` · line ${note.line}` : ''}
          </span>
          <span className="min-w-0 truncate">{note.text}</span>
        </div>
      );
    }
    case 'line': {
      const { line } = row;
      return (
        <div
          className={`grid h-full grid-cols-[2.5rem_2.5rem_1.25rem_1fr] font-mono text-xs leading-5 sm:grid-cols-[3.5rem_3.5rem_1.25rem_1fr] ${LINE_LOOK[line.kind]}`}
        >
          <span className="pr-2 text-right text-muted select-none">{line.old_line ?? ''}</span>
          <span className="pr-2 text-right text-muted select-none">{line.new_line ?? ''}</span>
          <span className="text-muted select-none" aria-hidden="true">
            {LINE_MARK[line.kind]}
          </span>
          <span className="pr-3 whitespace-pre">
            <CodeLine text={line.text} language={row.language} />
          </span>
        </div>
      );
    }
    case 'pair':
      return (
        <div className="grid h-full grid-cols-2 font-mono text-xs leading-5" data-testid="diff-pair">
          <Side line={row.left} number={row.left?.old_line ?? null} language={row.language} />
          <Side line={row.right} number={row.right?.new_line ?? null} language={row.language} />
        </div>
      );
  }
}
