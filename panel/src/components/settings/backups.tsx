/**
 * Backups: the schedule in force (GAFFER_BACKUP_INTERVAL_MINUTES, its retention and directory), the
 * latest backups kept with their size, and "Back up now" (written, read back and checked).
 */
import { useQueryClient } from '@tanstack/react-query';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { EmptyState, Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { RelativeTime } from '../ui/time';

/** "212 KiB", "3.4 MiB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function Backups() {
  const queryClient = useQueryClient();
  const backups = $api.useQuery('get', '/api/system/backups');
  const now = $api.useMutation('post', '/api/system/backups', {
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/system/backups') }),
  });
  const data = backups.data;
  return (
    <Section
      title="Backups"
      description="The whole store in one file that restores into PGlite or PostgreSQL (gaffer restore). The auth secret is not in it: keep a copy of it beside."
    >
      {backups.error && <ProblemNote error={backups.error} prefix="Could not read the backups" />}
      {backups.isPending && <Loading what="the backups" />}
      {data && (
        <div className="space-y-3">
          <p data-testid="backup-schedule">
            {data.interval_minutes === null
              ? 'Scheduled backups are off (GAFFER_BACKUP_INTERVAL_MINUTES=0).'
              : `Every ${data.interval_minutes} minutes, kept ${data.retention_days} days, in `}
            {data.interval_minutes !== null && <code className="font-mono text-xs">{data.dir}</code>}
          </p>
          {data.backups.length === 0 ? (
            <EmptyState>
              No backup yet: the first is written one interval after the start, or now with the button.
            </EmptyState>
          ) : (
            <ul className="divide-y divide-border" data-testid="backup-list">
              {data.backups.slice(0, 5).map((file, index) => (
                <li key={file.name} className="flex items-center gap-3 py-1.5">
                  <span className="font-mono text-xs">{file.name}</span>
                  <span className="text-muted">{sizeText(file.bytes)}</span>
                  <RelativeTime at={file.taken_at} />
                  {index === 0 && <span className="text-xs font-semibold text-ok">latest</span>}
                </li>
              ))}
            </ul>
          )}
          <Button disabled={now.isPending} onClick={() => now.mutate({})}>
            {now.isPending ? 'Backing up…' : 'Back up now'}
          </Button>
          {now.error && <ProblemNote error={now.error} prefix="The backup failed" />}
        </div>
      )}
    </Section>
  );
}
