/**
 * The header: the command palette (Ctrl/⌘-K), connection state, the pause control, the notifications
 * bell, the theme switch, sign out. Below `lg` it keeps what a phone needs — the name, search as an
 * icon, Live, Pause, the bell — and the theme and sign-out move to the bottom bar's More.
 */
import { LogOut, Moon, Sun } from 'lucide-react';
import { PauseControl } from '../maintenance/pause-dialog';
import { NotificationBell } from '../notifications/bell';
import { CommandPaletteButton } from '../palette/command-palette';
import { Button } from '../ui/button';
import { ConnectionBadge } from './connection-badge';
import { signOut } from './sign-out';
import { useTheme } from './theme';

export function Header() {
  const [theme, toggleTheme] = useTheme();
  return (
    <header className="flex h-12 shrink-0 items-center justify-end gap-2 border-b border-border bg-surface px-3 sm:gap-3 sm:px-6">
      <span className="mr-auto text-[15px] font-semibold tracking-tight lg:hidden">Gaffer</span>
      <CommandPaletteButton />
      <ConnectionBadge />
      <PauseControl />
      <NotificationBell />
      <div className="hidden items-center gap-3 lg:flex">
        <Button
          variant="ghost"
          size="sm"
          onClick={toggleTheme}
          aria-label={theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
        >
          {theme === 'dark' ? <Sun size={16} aria-hidden /> : <Moon size={16} aria-hidden />}
        </Button>
        <Button variant="ghost" size="sm" aria-label="Sign out" title="Sign out" onClick={signOut}>
          <LogOut size={16} aria-hidden />
        </Button>
      </div>
    </header>
  );
}
