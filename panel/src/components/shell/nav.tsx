/**
 * The navigation, one pattern at every width (docs/panel.md, "On a phone"): from `lg` up a left
 * column of every page; below it a bottom bar with what the CEO reaches for most — Inbox, Tasks,
 * Agents — and More, a sheet with the rest (and the theme switch and sign-out the narrow header
 * leaves out). Inbox carries the live count of what waits for the CEO in both.
 */
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
  UsersRound,
} from 'lucide-react';
import { NavLink } from 'react-router';
import { useInbox } from '../inbox/use-inbox';
import { MoreMenu } from './more-menu';

export const NAV_ITEMS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: '/', label: 'Inbox', icon: Inbox },
  { to: '/tasks', label: 'Tasks', icon: KanbanSquare },
  { to: '/agents', label: 'Agents', icon: Bot },
  { to: '/projects', label: 'Projects', icon: FolderGit2 },
  { to: '/usage', label: 'Usage', icon: BarChart3 },
  { to: '/workforce', label: 'Workforce', icon: UsersRound },
  { to: '/notifications', label: 'Notifications', icon: Bell },
  { to: '/social', label: 'Social', icon: Megaphone },
  { to: '/intake', label: 'Intake', icon: MessageSquarePlus },
  { to: '/secretary', label: 'Secretary', icon: BriefcaseBusiness },
  { to: '/settings', label: 'Settings', icon: Settings },
];

/** The pages on the phone's bottom bar; the rest are under More. */
const BAR_PAGES = 3;

function InboxCount({ count, testId }: { count: number; testId: string }) {
  if (count === 0) return null;
  return (
    <span
      data-testid={testId}
      className="rounded-full bg-accent px-1.5 text-xs font-semibold text-accent-text"
    >
      {count}
      <span className="sr-only"> waiting for you</span>
    </span>
  );
}

export function Nav() {
  const { count } = useInbox();
  return (
    <nav
      aria-label="Main"
      className="hidden w-48 shrink-0 flex-col border-r border-border bg-surface lg:flex"
    >
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
              {to === '/' && <InboxCount count={count} testId="inbox-count" />}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function BottomBar() {
  const { count } = useInbox();
  const item = 'flex min-h-11 flex-1 flex-col items-center justify-center gap-0.5 text-[11px]';
  return (
    <nav
      aria-label="Main"
      data-testid="bottom-bar"
      className="fixed inset-x-0 bottom-0 z-30 flex border-t border-border bg-surface pb-[env(safe-area-inset-bottom)] lg:hidden"
    >
      {NAV_ITEMS.slice(0, BAR_PAGES).map(({ to, label, icon: Icon }) => (
        <NavLink
          key={to}
          to={to}
          end={to === '/'}
          className={({ isActive }) =>
            `${item} ${isActive ? 'font-semibold text-accent' : 'text-muted hover:text-text'}`
          }
        >
          <span className="relative">
            <Icon size={20} aria-hidden />
            {to === '/' && count > 0 && (
              <span className="absolute -top-1.5 left-3">
                <InboxCount count={count} testId="bottom-inbox-count" />
              </span>
            )}
          </span>
          {label}
        </NavLink>
      ))}
      <MoreMenu items={NAV_ITEMS.slice(BAR_PAGES)} className={`${item} text-muted hover:text-text`} />
    </nav>
  );
}
