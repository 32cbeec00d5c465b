/**
 * Tabs kept in the query string (`?tab=`), so a tab can be shared; the first tab is the default.
 * Switching tabs keeps the page's other parameters (a period, a filter). A bar of tabs wider than
 * the screen scrolls sideways on its own (TAB_BAR), never the page.
 */
import { Link, useSearchParams } from 'react-router';

/** The bar of tabs (links or Radix triggers) and one tab, as every tabbed page draws them. */
export const TAB_BAR = 'flex gap-1 overflow-x-auto border-b border-border';
export const TAB =
  '-mb-px shrink-0 border-b-2 border-transparent px-3 py-1.5 whitespace-nowrap text-muted hover:text-text data-[state=active]:border-accent data-[state=active]:font-semibold data-[state=active]:text-text aria-[current=page]:border-accent aria-[current=page]:font-semibold aria-[current=page]:text-text';

export function useTab<T extends string>(tabs: readonly T[]): T {
  const [search] = useSearchParams();
  const tab = search.get('tab');
  return (tabs as readonly string[]).includes(tab ?? '') ? (tab as T) : tabs[0]!;
}

export function TabLinks<T extends string>({
  tabs,
  labels,
  current,
}: {
  tabs: readonly T[];
  labels: Record<T, string>;
  current: T;
}) {
  const [search] = useSearchParams();
  const hrefFor = (tab: T, index: number) => {
    const params = new URLSearchParams(search);
    if (index === 0) params.delete('tab');
    else params.set('tab', tab);
    return `?${params}`;
  };
  return (
    <nav aria-label="Tabs" className={TAB_BAR}>
      {tabs.map((tab, index) => (
        <Link
          key={tab}
          to={hrefFor(tab, index)}
          replace
          aria-current={tab === current ? 'page' : undefined}
          className={TAB}
        >
          {labels[tab]}
        </Link>
      ))}
    </nav>
  );
}
