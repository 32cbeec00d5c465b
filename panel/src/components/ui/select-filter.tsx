/** A labelled select bound to one query-string parameter ('' = no filter), so a filtered view can be shared. */
import { useSearchParams } from 'react-router';

export function SelectFilter({
  param,
  label,
  options,
  allLabel = 'All',
}: {
  param: string;
  label: string;
  options: readonly { value: string; label: string }[];
  allLabel?: string;
}) {
  const [search, setSearch] = useSearchParams();
  const value = search.get(param) ?? '';
  return (
    <label className="inline-flex items-center gap-1.5 text-muted">
      {label}
      <select
        value={value}
        onChange={(event) =>
          setSearch(
            (previous) => {
              const next = new URLSearchParams(previous);
              if (event.target.value) next.set(param, event.target.value);
              else next.delete(param);
              return next;
            },
            { replace: true },
          )
        }
        className="h-7 rounded-md border border-border bg-surface px-1.5 text-[13px] text-text"
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
