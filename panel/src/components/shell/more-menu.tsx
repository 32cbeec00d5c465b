/**
 * More, on the phone's bottom bar: a sheet from the bottom with the pages the bar has no room for,
 * and the theme switch and sign-out that the narrow header leaves out. It closes as a page opens.
 */
import { LogOut, type LucideIcon, Menu, Moon, Sun } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { signOut } from './sign-out';
import { useTheme } from './theme';

const row =
  'flex min-h-11 w-full items-center gap-3 rounded-md px-3 text-left text-[15px] hover:bg-surface-2';

export function MoreMenu({
  items,
  className,
}: {
  items: { to: string; label: string; icon: LucideIcon }[];
  className: string;
}) {
  const [open, setOpen] = useState(false);
  const [theme, toggleTheme] = useTheme();
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className={className} aria-label="More pages">
        <Menu size={20} aria-hidden />
        More
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <RadixDialog.Content
          data-testid="more-sheet"
          className="fixed inset-x-0 bottom-0 z-50 max-h-[85dvh] overflow-y-auto rounded-t-xl border-t border-border bg-surface p-3 pb-[calc(0.75rem+env(safe-area-inset-bottom))] shadow-xl"
        >
          <RadixDialog.Title className="px-3 pb-2 text-[15px] font-semibold">More</RadixDialog.Title>
          <RadixDialog.Description className="sr-only">
            The other pages, the theme and signing out.
          </RadixDialog.Description>
          <ul className="flex flex-col gap-0.5">
            {items.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  onClick={() => setOpen(false)}
                  className={({ isActive }) => `${row} ${isActive ? 'bg-surface-2 font-semibold' : ''}`}
                >
                  <Icon size={18} aria-hidden />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-2 flex flex-col gap-0.5 border-t border-border pt-2">
            <button type="button" className={row} onClick={toggleTheme}>
              {theme === 'dark' ? <Sun size={18} aria-hidden /> : <Moon size={18} aria-hidden />}
              {theme === 'dark' ? 'Light theme' : 'Dark theme'}
            </button>
            <button type="button" className={row} onClick={signOut}>
              <LogOut size={18} aria-hidden />
              Sign out
            </button>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
