/** The header: the command palette (Ctrl/⌘-K), connection state, the pause control, the notifications bell, the theme switch, sign out. */
import { LogOut, Moon, Sun } from 'lucide-react';
import { fetchClient } from '../../api/client';
import { noteSignedOut } from '../../api/session';
import { PauseControl } from '../maintenance/pause-dialog';
import { NotificationBell } from '../notifications/bell';
import { CommandPaletteButton } from '../palette/command-palette';
import { Button } from '../ui/button';
import { ConnectionBadge } from './connection-badge';
import { useTheme } from './theme';

export function Header() {
  const [theme, toggleTheme] = useTheme();
  return (
    <header className="flex h-12 shrink-0 items-center justify-end gap-3 border-b border-border bg-surface px-6">
      <CommandPaletteButton />
      <ConnectionBadge />
      <PauseControl />
      <NotificationBell />
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
