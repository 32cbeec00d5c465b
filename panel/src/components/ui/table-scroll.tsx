/**
 * A wide table's own scroll box: on a narrow screen the table scrolls sideways inside it and the
 * page never does (docs/panel.md, "On a phone"). Every <table> of the panel sits in one. It is a
 * named group the keyboard can reach (a box that scrolls must be, axe's scrollable-region-focusable),
 * framed as a card unless `bare`.
 */
import type { ReactNode } from 'react';

export function TableScroll({
  label,
  bare = false,
  children,
}: {
  /** What the table holds, for assistive technology ("Recent runs"). */
  label: string;
  bare?: boolean;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a scroll box around a table, not a set of form controls.
    <div
      role="group"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard.
      tabIndex={0}
      className={`relative max-w-full overflow-x-auto ${bare ? '' : 'rounded-lg border border-border bg-surface'}`}
    >
      {children}
    </div>
  );
}
