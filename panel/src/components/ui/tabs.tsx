/**
 * Tabs kept in the query string (`?tab=`), so a tab can be shared; the first tab is the default.
 * Switching tabs keeps the page's other parameters (a period, a filter).
 */
import { Link, useSearchParams } from 'react-router';

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
    <nav aria-label="Tabs" className="flex gap-1 border-b border-border">
      {tabs.map((tab, index) => (
        <Link
          key={tab}
          to={hrefFor(tab, index)}
          replace
          aria-current={tab === current ? 'page' : undefined}
          className={`-mb-px border-b-2 px-3 py-1.5 ${
            tab === current
              ? 'border-accent font-semibold text-text'
              : 'border-transparent text-muted hover:text-text'
          }`}
        >
          {labels[tab]}
        </Link>
      ))}
    </nav>
  );
}
