/**
 * Settings → Feature flags: every flag with the server's label and description, the persisted value
 * (what the next boot uses; the switch changes it) and the effective one (what this process runs
 * with), and an amber "applies on the next restart" when they differ.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Switch } from 'radix-ui';
import { $api, queryKey } from '../../api/client';
import { EmptyState, Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { TableScroll } from '../ui/table-scroll';

const onOff = (value: boolean) => (value ? 'On' : 'Off');

export function FeatureFlags() {
  const queryClient = useQueryClient();
  const flags = $api.useQuery('get', '/api/settings/feature-flags');
  const save = $api.useMutation('put', '/api/settings/{key}', {
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/settings/feature-flags') }),
  });

  return (
    <Section
      title="Feature flags"
      description={flags.data?.note ?? 'Changes take effect on the next restart.'}
    >
      {flags.isPending && <Loading what="feature flags" />}
      {flags.error && <ProblemNote error={flags.error} prefix="Could not load the feature flags" />}
      {save.error && <ProblemNote error={save.error} prefix="Could not save the flag" />}
      {flags.data && flags.data.flags.length === 0 && (
        <EmptyState>This server has no feature flags.</EmptyState>
      )}
      {flags.data && flags.data.flags.length > 0 && (
        <TableScroll label="Feature flags" bare>
          <table className="w-full border-collapse text-left">
            <thead className="text-xs text-muted">
              <tr className="border-b border-border">
                <th scope="col" className="py-2 pr-4 font-medium">
                  Flag
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  What it does
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Persisted
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Effective now
                </th>
              </tr>
            </thead>
            <tbody>
              {flags.data.flags.map((flag) => {
                const saving = save.isPending && save.variables?.params.path.key === flag.key;
                return (
                  <tr
                    key={flag.key}
                    data-testid={`flag-${flag.key}`}
                    className="border-b border-border align-top last:border-0"
                  >
                    <th scope="row" className="py-2.5 pr-4 font-medium">
                      <span id={`flag-${flag.key}-label`}>{flag.label}</span>
                      <span className="block font-mono text-xs font-normal text-muted">{flag.key}</span>
                    </th>
                    <td className="max-w-[480px] py-2.5 pr-4 text-muted">{flag.description}</td>
                    <td className="py-2.5 pr-4">
                      <span className="flex items-center gap-2">
                        <Switch.Root
                          checked={flag.persisted}
                          disabled={saving}
                          aria-labelledby={`flag-${flag.key}-label`}
                          onCheckedChange={(value) =>
                            save.mutate({ params: { path: { key: flag.key } }, body: { value } })
                          }
                          className="relative h-5 w-9 shrink-0 rounded-full border border-border bg-surface-2 data-[state=checked]:border-accent data-[state=checked]:bg-accent"
                        >
                          <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[17px]" />
                        </Switch.Root>
                        <span data-testid="persisted">{onOff(flag.persisted)}</span>
                      </span>
                    </td>
                    <td className="py-2.5 pr-4">
                      <span data-testid="effective">{onOff(flag.effective)}</span>
                      {flag.restart_required && (
                        <span
                          data-testid="restart-note"
                          className="mt-1 block w-fit rounded border border-warn/40 bg-warn-bg px-1.5 py-0.5 text-xs text-warn-text"
                        >
                          Applies on the next restart
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}
