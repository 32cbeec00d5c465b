/**
 * The header's Pause control and its dialog: pick one or more scopes (an already paused one is
 * shown as such), drain or kill, a reason, and a duration up to 14 days (default 4 h). Kill asks for
 * confirmation first. One POST per scope, in parallel; a scope that fails keeps its inline error
 * and the dialog stays open, the ones that worked are done.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Pause } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { fetchClient, queryKey } from '../../api/client';
import { problemOf } from '../../api/problem';
import { durationLabel } from '../../lib/format';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { SCOPES, type Scope, usePauses } from './use-pauses';

export const DURATION_HOURS = [0.5, 1, 2, 4, 8, 24, 72, 168, 336] as const;
export const DEFAULT_DURATION_HOURS = 4;
const REASON_MAX = 500;

export function PauseControl() {
  const [open, setOpen] = useState(false);
  const pauses = usePauses();
  const pausedCount = pauses.data?.scopes.filter((row) => row.paused).length ?? 0;
  return (
    <>
      <Button
        variant={pausedCount > 0 ? 'danger' : 'secondary'}
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={
          pausedCount > 0 ? `Pause (${pausedCount} scope${pausedCount === 1 ? '' : 's'} paused)` : 'Pause'
        }
      >
        <Pause size={14} aria-hidden />
        {pausedCount > 0 ? `${pausedCount} paused` : 'Pause'}
      </Button>
      {open && <PauseDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function PauseDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const pauses = usePauses();
  const pausedNow = new Set(pauses.data?.scopes.filter((r) => r.paused).map((r) => r.scope));
  const [selected, setSelected] = useState<Set<Scope>>(new Set());
  const [mode, setMode] = useState<'drain' | 'kill'>('drain');
  const [reason, setReason] = useState('');
  const [hours, setHours] = useState<number>(DEFAULT_DURATION_HOURS);
  const [confirmKill, setConfirmKill] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Scope, string>>>({});
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  const toggle = (scope: Scope) => {
    setConfirmKill(false);
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(scope)) next.delete(scope);
      else next.add(scope);
      return next;
    });
  };

  async function send() {
    setBusy(true);
    const expiresAt = new Date(Date.now() + hours * 3_600_000).toISOString();
    const scopes = [...selected];
    const results = await Promise.allSettled(
      scopes.map(async (scope) => {
        const { error } = await fetchClient.POST('/api/maintenance-pause/{scope}', {
          params: { path: { scope } },
          body: { mode, expires_at: expiresAt, ...(reason.trim() ? { reason: reason.trim() } : {}) },
        });
        if (error) throw error;
      }),
    );
    setBusy(false);
    await queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/maintenance-pause') });
    const failed: Partial<Record<Scope, string>> = {};
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        const problem = problemOf(result.reason);
        failed[scopes[index]!] = [problem.message, problem.remediate].filter(Boolean).join(' ');
      }
    });
    setErrors(failed);
    setConfirmKill(false);
    if (Object.keys(failed).length === 0) onClose();
    else setSelected(new Set(Object.keys(failed) as Scope[]));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (selected.size === 0) {
      setFormError('Choose at least one scope to pause.');
      return;
    }
    setFormError(null);
    if (mode === 'kill' && !confirmKill) {
      setConfirmKill(true);
      return;
    }
    void send();
  }

  const count = selected.size;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Pause work"
      description="Hold parts of the company without stopping the server. Each scope resumes on its own when its time is up, or from the banner."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <fieldset className="space-y-2">
          <legend className="mb-1 font-semibold">Scopes</legend>
          {SCOPES.map(({ scope, label, description }) => {
            const already = pausedNow.has(scope);
            return (
              <label key={scope} className={`flex items-start gap-2 ${already ? 'opacity-60' : ''}`}>
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={selected.has(scope)}
                  disabled={already || busy}
                  onChange={() => toggle(scope)}
                  aria-describedby={`scope-${scope}-help`}
                />
                <span>
                  <span className="font-medium">{label}</span>{' '}
                  <span className="font-mono text-xs">({scope})</span>
                  <span id={`scope-${scope}-help`} className="block text-muted">
                    {already ? 'Already paused: resume it from the banner first.' : description}
                  </span>
                  {errors[scope] && (
                    <span role="alert" className="block text-danger">
                      {errors[scope]}
                    </span>
                  )}
                </span>
              </label>
            );
          })}
        </fieldset>

        <fieldset className="space-y-1">
          <legend className="mb-1 font-semibold">Mode</legend>
          <label className="flex items-start gap-2">
            <input
              className="mt-1"
              type="radio"
              name="mode"
              checked={mode === 'drain'}
              onChange={() => {
                setMode('drain');
                setConfirmKill(false);
              }}
            />
            <span>
              <span className="font-medium">Drain</span>
              <span className="text-muted"> — in-flight work finishes; nothing new starts.</span>
            </span>
          </label>
          <label className="flex items-start gap-2">
            <input
              className="mt-1"
              type="radio"
              name="mode"
              checked={mode === 'kill'}
              onChange={() => setMode('kill')}
            />
            <span>
              <span className="font-medium">Kill</span>
              <span className="text-muted">
                {' '}
                — also stops in-flight work now (running agents are stopped).
              </span>
            </span>
          </label>
        </fieldset>

        <div className="grid gap-3 sm:grid-cols-[160px_1fr]">
          <label className="space-y-1">
            <span className="block font-semibold">Duration</span>
            <select
              className="h-8 w-full rounded-md border border-border bg-surface px-2"
              value={hours}
              onChange={(e) => setHours(Number(e.target.value))}
            >
              {DURATION_HOURS.map((h) => (
                <option key={h} value={h}>
                  {durationLabel(h)}
                  {h === 336 ? ' (maximum)' : ''}
                </option>
              ))}
            </select>
          </label>
          <label className="space-y-1">
            <span className="block font-semibold">Reason (shown in the banner)</span>
            <input
              className="h-8 w-full rounded-md border border-border bg-surface px-2"
              value={reason}
              maxLength={REASON_MAX}
              onChange={(e) => setReason(e.target.value)}
              placeholder="e.g. migrating the database"
            />
          </label>
        </div>

        {formError && (
          <p role="alert" className="text-danger">
            {formError}
          </p>
        )}
        {confirmKill && (
          <div role="alert" className="rounded-md border border-danger/40 bg-danger-bg p-3 text-danger-text">
            Kill interrupts work in progress in the chosen scopes: running agents are stopped (their tasks go
            back to pending) and running sweeps or cycles are aborted. Confirm with “Yes, pause and kill”.
          </div>
        )}

        <div className="flex justify-end gap-2">
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant={mode === 'kill' ? 'danger' : 'primary'} disabled={busy}>
            {mode === 'kill' ? (confirmKill ? 'Yes, pause and kill' : 'Pause and kill') : 'Pause'}
            {count > 0 ? ` ${count} scope${count === 1 ? '' : 's'}` : ''}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
