/**
 * Page frame: a title row (with optional actions, which wrap under the title on a narrow screen)
 * and the content; `narrow` caps forms at 960 px. Every page uses it, so every page is as wide as
 * the screen and no wider (docs/panel.md, "On a phone").
 */
import type { ReactNode } from 'react';

export function Page({
  title,
  actions,
  narrow = false,
  children,
}: {
  title: string;
  actions?: ReactNode;
  narrow?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`min-w-0 px-4 py-5 sm:px-6 ${narrow ? 'max-w-[960px]' : ''}`}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h1 className="min-w-0 text-[22px] font-semibold break-words">{title}</h1>
        {actions}
      </div>
      <div className="space-y-6">{children}</div>
    </div>
  );
}

export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} className="min-w-0 rounded-lg border border-border bg-surface">
      <header className="border-b border-border px-3 py-3 sm:px-4">
        <h2 className="text-[15px] font-semibold">{title}</h2>
        {description && <p className="mt-0.5 text-muted">{description}</p>}
      </header>
      <div className="p-3 sm:p-4">{children}</div>
    </section>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-dashed border-border px-4 py-6 text-center text-muted">
      {children}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="text-muted" aria-busy="true">
      Loading {what}…
    </p>
  );
}
