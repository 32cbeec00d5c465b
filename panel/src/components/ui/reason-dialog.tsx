/**
 * "Reject with a written reason": a dialog whose textarea must hold at least `minLength`
 * characters (trimmed) before `onSubmit(reason)` runs; too short a reason shows `tooShortMessage`
 * as an alert tied to the field, and typing clears it. The caller owns the mutation: it passes
 * its pending state and error, and closes the dialog on success.
 */
import { type FormEvent, useId, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { ProblemNote } from './problem-note';

export function ReasonDialog({
  title,
  description,
  fieldLabel,
  minLength,
  tooShortMessage,
  pending,
  error,
  errorPrefix,
  onSubmit,
  onClose,
}: {
  title: string;
  description: string;
  fieldLabel: string;
  minLength: number;
  tooShortMessage: string;
  pending: boolean;
  error: unknown;
  errorPrefix?: string;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const tooShortId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim().length < minLength) {
      setTooShort(true);
      return;
    }
    onSubmit(reason.trim());
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={title} description={description}>
      <form onSubmit={submit} className="space-y-3" noValidate>
        <label className="block space-y-1">
          <span className="block font-medium">{fieldLabel}</span>
          <textarea
            className="min-h-24 w-full rounded-md border border-border bg-surface p-2"
            value={reason}
            aria-invalid={tooShort || undefined}
            aria-describedby={tooShort ? tooShortId : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setTooShort(false);
            }}
          />
        </label>
        {tooShort && (
          <p id={tooShortId} role="alert" className="text-danger">
            {tooShortMessage}
          </p>
        )}
        <ProblemNote error={error} prefix={errorPrefix} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="danger" disabled={pending}>
            {pending ? 'Rejecting…' : 'Reject'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
