/**
 * A modal dialog (Radix): focus trapped, Esc closes, title and description announced. Below `sm` it
 * is a full-height sheet (nothing behind it to see on a phone, and its actions stay in reach).
 */
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <RadixDialog.Content className="fixed inset-0 z-50 h-dvh w-full overflow-y-auto bg-surface p-4 pb-[calc(1rem+env(safe-area-inset-bottom))] shadow-xl sm:inset-auto sm:top-[12vh] sm:left-1/2 sm:h-auto sm:max-h-[80vh] sm:w-[min(560px,calc(100vw-2rem))] sm:-translate-x-1/2 sm:rounded-lg sm:border sm:border-border sm:p-5">
          <RadixDialog.Title className="text-[18px] font-semibold">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-1 text-muted">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
          )}
          <div className="mt-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
