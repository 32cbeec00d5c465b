/**
 * The Tasks toolbar: text search, selects that add filters, the active filters as removable chips,
 * and the List | Kanban switch. Everything it changes goes into the URL (filters.ts).
 */
import { KanbanSquare, List, Search, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../ui/button';
import {
  hasFilters,
  TASK_STATES,
  type TaskFilters,
  type TaskState,
  TEAMS,
  type Team,
  withFilters,
} from './filters';
import type { Lookups } from './lookups';
import { stateLabel } from './state-badge';

const SELECT = 'h-8 rounded-md border border-border bg-surface px-2 text-[13px] text-text hover:bg-surface-2';

export function FilterToolbar({
  filters,
  onChange,
  lookups,
}: {
  filters: TaskFilters;
  onChange: (next: TaskFilters) => void;
  lookups: Lookups;
}) {
  const set = (change: Partial<TaskFilters>) => onChange(withFilters(filters, change));
  const [text, setText] = useState(filters.q ?? '');
  useEffect(() => setText(filters.q ?? ''), [filters.q]);
  // Typing searches after a short pause; Enter searches at once.
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === (filters.q ?? '')) return;
    const timer = setTimeout(() => set({ q: wanted || undefined }), 400);
    return () => clearTimeout(timer);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: text.trim() || undefined });
  };
  const projectName = (id: string) => lookups.projects.find((p) => p.id === id)?.slug ?? id.slice(0, 8);

  return (
    <div className="space-y-2" data-testid="task-toolbar">
      <div className="flex flex-wrap items-center gap-2">
        <search>
          <form onSubmit={submit} className="relative">
            <Search size={14} aria-hidden className="pointer-events-none absolute top-2 left-2 text-muted" />
            <input
              type="search"
              aria-label="Search tasks by title or id"
              placeholder="Search title or id…"
              maxLength={200}
              value={text}
              onChange={(e) => setText(e.target.value)}
              className="h-8 w-64 rounded-md border border-border bg-surface pr-2 pl-7 text-[13px]"
            />
          </form>
        </search>
        <select
          aria-label="Filter by state"
          className={`${SELECT} w-32`}
          value=""
          onChange={(e) => {
            const state = e.target.value as TaskState;
            if (state && !filters.states.includes(state)) set({ states: [...filters.states, state] });
          }}
        >
          <option value="">State…</option>
          {TASK_STATES.filter((s) => !filters.states.includes(s)).map((s) => (
            <option key={s} value={s}>
              {stateLabel(s)}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by team"
          className={SELECT}
          value={filters.team ?? ''}
          onChange={(e) => set({ team: (e.target.value || undefined) as Team | undefined })}
        >
          <option value="">Team…</option>
          {TEAMS.map((t) => (
            <option key={t} value={t}>
              {t.replace('_', ' ')}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by project"
          className={SELECT}
          value={filters.project ?? ''}
          onChange={(e) => set({ project: e.target.value || undefined })}
        >
          <option value="">Project…</option>
          {lookups.projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.slug}
            </option>
          ))}
        </select>
        <fieldset className="ml-auto inline-flex rounded-md border border-border" aria-label="View">
          <ViewButton active={filters.view === 'list'} onClick={() => set({ view: 'list' })} label="List">
            <List size={14} aria-hidden />
          </ViewButton>
          <ViewButton
            active={filters.view === 'kanban'}
            onClick={() => set({ view: 'kanban' })}
            label="Kanban"
          >
            <KanbanSquare size={14} aria-hidden />
          </ViewButton>
        </fieldset>
      </div>
      {hasFilters(filters) && (
        <ul className="flex flex-wrap items-center gap-1.5" aria-label="Active filters">
          {filters.states.map((s) => (
            <Chip
              key={s}
              label={`state: ${stateLabel(s)}`}
              onRemove={() => set({ states: filters.states.filter((x) => x !== s) })}
            />
          ))}
          {filters.team && (
            <Chip
              label={`team: ${filters.team.replace('_', ' ')}`}
              onRemove={() => set({ team: undefined })}
            />
          )}
          {filters.project && (
            <Chip
              label={`project: ${projectName(filters.project)}`}
              onRemove={() => set({ project: undefined })}
            />
          )}
          {filters.q && <Chip label={`text: “${filters.q}”`} onRemove={() => set({ q: undefined })} />}
          <li>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onChange({ states: [], view: filters.view, page: 1 })}
            >
              Clear all
            </Button>
          </li>
        </ul>
      )}
    </div>
  );
}

function ViewButton({
  active,
  onClick,
  label,
  children,
}: {
  active: boolean;
  onClick: () => void;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={`inline-flex h-8 items-center gap-1.5 px-3 text-[13px] first:rounded-l-md last:rounded-r-md ${active ? 'bg-accent font-medium text-accent-text' : 'bg-surface text-text hover:bg-surface-2'}`}
    >
      {children}
      {label}
    </button>
  );
}

function Chip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <li className="inline-flex items-center gap-1 rounded-full border border-border bg-surface-2 py-0.5 pr-1 pl-2.5 text-xs">
      <span>{label}</span>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove filter ${label}`}
        className="rounded-full p-0.5 text-muted hover:bg-surface hover:text-text"
      >
        <X size={12} aria-hidden />
      </button>
    </li>
  );
}
