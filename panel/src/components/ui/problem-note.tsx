/** The server's error, shown where the action failed: its message and its `remediate` hint. */
import { problemOf } from '../../api/problem';

export function ProblemNote({ error, prefix }: { error: unknown; prefix?: string }) {
  if (error === null || error === undefined) return null;
  const problem = problemOf(error);
  return (
    <div
      role="alert"
      className="rounded-md border border-danger/40 bg-danger-bg px-3 py-2 text-[13px] text-danger-text"
    >
      <p>
        {prefix ? `${prefix}: ` : ''}
        {problem.message}
        {problem.fields.length > 0 && ` (${problem.fields.map((f) => `${f.field} ${f.message}`).join('; ')})`}
      </p>
      {problem.remediate && <p className="mt-1">{problem.remediate}</p>}
    </div>
  );
}
