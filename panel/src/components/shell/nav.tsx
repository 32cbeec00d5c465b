/** The left navigation; Inbox carries the live count of what waits for the CEO. */
import {
  BarChart3,
  Bell,
  Bot,
  BriefcaseBusiness,
  FolderGit2,
  Inbox,
  KanbanSquare,
  type LucideIcon,
  Megaphone,
  MessageSquarePlus,
  Settings,
} from 'lucide-react';
import { NavLink } from 'react-router';
import { useInbox } from '../inbox/use-inbox';

export const NAV_ITEMS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: '/', label: 'Inbox', icon: Inbox },
  { to: '/tasks', label: 'Tasks', icon: KanbanSquare },
  { to: '/agents', label: 'Agents', icon: Bot },
  { to: '/projects', label: 'Projects', icon: FolderGit2 },
  { to: '/usage', label: 'Usage', icon: BarChart3 },
  { to: '/notifications', label: 'Notifications', icon: Bell },
  { to: '/social', label: 'Social', icon: Megaphone },
  { to: '/intake', label: 'Intake', icon: MessageSquarePlus },
  { to: '/secretary', label: 'Secretary', icon: BriefcaseBusiness },
  { to: '/settings', label: 'Settings', icon: Settings },
];

export function Nav() {
  const { count } = useInbox();
  return (
    <nav aria-label="Main" className="flex w-48 shrink-0 flex-col border-r border-border bg-surface">
      <div className="flex h-12 items-center border-b border-border px-4 text-[15px] font-semibold tracking-tight">
        Gaffer
      </div>
      <ul className="flex flex-col gap-0.5 p-2">
        {NAV_ITEMS.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={to === '/'}
              className={({ isActive }) =>
                `flex items-center gap-2 rounded-md px-2 py-1.5 ${isActive ? 'bg-surface-2 font-semibold text-text' : 'text-muted hover:bg-surface-2 hover:text-text'}`
              }
            >
              <Icon size={16} aria-hidden />
              <span className="flex-1">{label}</span>
              {to === '/' && count > 0 && (
                <span
                  data-testid="inbox-count"
                  className="rounded-full bg-accent px-1.5 text-xs font-semibold text-accent-text"
                >
                  {count}
                  <span className="sr-only"> waiting for you</span>
                </span>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
