/**
 * The red banner under the header, on every page, while agents do not run in their sandbox: the
 * operator turned it off (agents can then read the server's secrets), or it is on and none can be
 * made on this host (agents cannot start) — and while their runs are bounded only by rlimits (no
 * cgroup can be made here, so one runaway run can take the host down). Read from /health, which
 * says so every time.
 */
import { ShieldAlert } from 'lucide-react';
import { $api } from '../../api/client';

export function SandboxBanner() {
  const health = $api.useQuery('get', '/health', {}, { staleTime: 60_000 });
  const warnings = health.data?.warnings ?? [];
  if (warnings.length === 0) return null;
  const limitsReason = health.data?.run_limits.ready === false ? health.data.run_limits.reason : null;
  const titleOf = (warning: string) =>
    limitsReason && warning.includes(limitsReason) ? 'Agent runs unbounded' : 'Agents unsandboxed';
  return (
    <div role="alert" aria-label="Agent sandbox">
      {warnings.map((warning) => (
        <div
          key={warning}
          data-testid="sandbox-banner"
          className="flex items-center gap-2 border-b border-danger/40 bg-danger-bg px-6 py-2 text-danger-text"
        >
          <ShieldAlert size={16} aria-hidden className="shrink-0" />
          <span className="mr-1 shrink-0 whitespace-nowrap font-semibold uppercase tracking-wide">
            {titleOf(warning)}
          </span>
          <span>{warning}</span>
        </div>
      ))}
    </div>
  );
}
