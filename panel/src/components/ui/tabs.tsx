/** Tabs kept in the query string (`?tab=`), so a tab can be shared; the first tab is the default. */
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
  return (
    <nav aria-label="Tabs" className="flex gap-1 border-b border-border">
      {tabs.map((tab, index) => (
        <Link
          key={tab}
          to={index === 0 ? '?' : `?tab=${tab}`}
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
