/** An id shortened to 8 characters, monospace, with the full id on hover. */
export function ShortId({ id }: { id: string }) {
  return (
    <span className="font-mono text-xs" title={id}>
      {id.slice(0, 8)}
    </span>
  );
}
