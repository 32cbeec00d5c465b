/** The header: connection state, the pause control, the notifications bell, the theme switch, sign out. */
import { Bell, LogOut, Moon, Sun } from 'lucide-react';
import { Link } from 'react-router';
import { $api, fetchClient } from '../../api/client';
import { noteSignedOut } from '../../api/session';
import { usePollInterval } from '../../live/live';
import { PauseControl } from '../maintenance/pause-dialog';
import { Button } from '../ui/button';
import { ConnectionBadge } from './connection-badge';
import { useTheme } from './theme';

export function Header() {
  const [theme, toggleTheme] = useTheme();
  const notifications = $api.useQuery(
    'get',
    '/api/notifications',
    { params: { query: { limit: 1 } } },
    {
      refetchInterval: usePollInterval(30_000),
    },
  );
  const unread = notifications.data?.unread_count ?? 0;
  return (
    <header className="flex h-12 shrink-0 items-center justify-end gap-3 border-b border-border bg-surface px-6">
      <ConnectionBadge />
      <PauseControl />
      <Link
        to="/notifications"
        aria-label={unread > 0 ? `Notifications: ${unread} unread` : 'Notifications'}
        className="relative inline-flex size-8 items-center justify-center rounded-md hover:bg-surface-2"
      >
        <Bell size={16} aria-hidden />
        {unread > 0 && (
          <span className="absolute -top-0.5 -right-0.5 rounded-full bg-accent px-1 text-[11px] font-semibold text-accent-text">
            {unread}
          </span>
        )}
      </Link>
      <Button
        variant="ghost"
        size="sm"
        onClick={toggleTheme}
        aria-label={theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
      >
        {theme === 'dark' ? <Sun size={16} aria-hidden /> : <Moon size={16} aria-hidden />}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        aria-label="Sign out"
        title="Sign out"
        onClick={() => void fetchClient.DELETE('/api/auth/session').then(noteSignedOut)}
      >
        <LogOut size={16} aria-hidden />
      </Button>
    </header>
  );
}
