/**
 * The command palette (Ctrl/⌘-K, or the header's Search button): jump to a page, a task (by id
 * prefix or title, searched on the server among all tasks; a full task id always opens), an agent
 * (slug or name) or a project. Keyboard only: type, ↑/↓, Enter; Esc closes (the dialog traps focus).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { $api } from '../../api/client';
import { useDebounced } from '../../lib/use-debounced';
import { NAV_ITEMS } from '../shell/nav';
import { Dialog } from '../ui/dialog';
import { paletteScore, taskSearchTerm } from './match';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tasks asked of the server per search (the latest ones while nothing is typed). */
const TASKS_SHOWN = 50;

/** Opens the palette on Ctrl-K / ⌘-K anywhere in the panel. */
export function useCommandPaletteShortcut(setOpen: (open: boolean) => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);
}

export function CommandPaletteButton() {
  const [open, setOpen] = useState(false);
  useCommandPaletteShortcut(setOpen);
  const mac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K Meta+K"
        aria-label="Search or jump to…"
        className="inline-flex size-11 items-center justify-center gap-2 rounded-md text-muted hover:text-text lg:mr-auto lg:h-8 lg:w-64 lg:justify-start lg:border lg:border-border lg:bg-bg lg:px-2"
      >
        <Search size={16} aria-hidden className="lg:size-3.5" />
        <span className="hidden flex-1 text-left lg:inline">Search or jump to…</span>
        <kbd className="hidden rounded border border-border px-1 font-mono text-[11px] lg:inline">
          {mac ? '⌘K' : 'Ctrl K'}
        </kbd>
      </button>
      {open && <CommandPalette open={open} onOpenChange={setOpen} />}
    </>
  );
}

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 data-[selected=true]:bg-accent data-[selected=true]:text-accent-text';
const groupClass =
  '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-muted';

function CommandPalette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const term = useDebounced(taskSearchTerm(text), 150);
  const tasks = $api.useQuery(
    'get',
    '/api/tasks',
    { params: { query: { limit: TASKS_SHOWN, ...(term ? { q: term } : {}) } } },
    { placeholderData: keepPreviousData },
  );
  const agents = $api.useQuery('get', '/api/agents');
  const projects = $api.useQuery('get', '/api/projects');
  const go = (to: string) => {
    onOpenChange(false);
    navigate(to);
  };
  const typedId = text.trim();

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Jump to…"
      description="A page, a task (id or title), an agent or a project."
    >
      <Command label="Jump to" filter={paletteScore} className="text-[13px]">
        <Command.Input
          autoFocus
          value={text}
          onValueChange={setText}
          placeholder="Type a task id, a title, an agent, a project or a page"
          className="h-9 w-full rounded-md border border-border bg-bg px-2"
        />
        <Command.List className="mt-2 max-h-[50vh] overflow-y-auto">
          {(tasks.isPending || agents.isPending) && <Command.Loading>Loading…</Command.Loading>}
          <Command.Empty className="px-2 py-3 text-muted">Nothing matches “{text}”.</Command.Empty>
          {UUID.test(typedId) && (
            <Command.Group heading="Open" className={groupClass}>
              <Command.Item
                value={`open ${typedId}`}
                onSelect={() => go(`/tasks/${typedId.toLowerCase()}`)}
                className={itemClass}
              >
                Task <span className="font-mono text-xs">{typedId}</span>
              </Command.Item>
            </Command.Group>
          )}
          <Command.Group heading="Pages" className={groupClass}>
            {NAV_ITEMS.map(({ to, label, icon: Icon }) => (
              <Command.Item key={to} value={`page ${label}`} onSelect={() => go(to)} className={itemClass}>
                <Icon size={14} aria-hidden /> {label}
              </Command.Item>
            ))}
          </Command.Group>
          <Command.Group heading="Tasks" className={groupClass}>
            {tasks.data?.tasks.map((task) => (
              <Command.Item
                key={task.id}
                value={`task ${task.id}`}
                keywords={[task.title]}
                onSelect={() => go(`/tasks/${task.id}`)}
                className={itemClass}
              >
                <span className="font-mono text-xs">{task.id.slice(0, 8)}</span>
                <span className="min-w-0 flex-1 truncate">{task.title}</span>
                <span className="text-xs opacity-80">{task.status.replaceAll('_', ' ')}</span>
              </Command.Item>
            ))}
          </Command.Group>
          <Command.Group heading="Agents" className={groupClass}>
            {agents.data?.agents.map((agent) => (
              <Command.Item
                key={agent.id}
                value={`agent ${agent.slug}`}
                keywords={[agent.name, agent.role]}
                onSelect={() => go(`/agents/${agent.slug}`)}
                className={itemClass}
              >
                <span className="font-mono text-xs">{agent.slug}</span> {agent.name}
              </Command.Item>
            ))}
          </Command.Group>
          <Command.Group heading="Projects" className={groupClass}>
            {projects.data?.projects.map((project) => (
              <Command.Item
                key={project.slug}
                value={`project ${project.slug}`}
                keywords={[project.name]}
                onSelect={() => go(`/projects/${project.slug}`)}
                className={itemClass}
              >
                <span className="font-mono text-xs">{project.slug}</span> {project.name}
              </Command.Item>
            ))}
          </Command.Group>
        </Command.List>
      </Command>
    </Dialog>
  );
}
