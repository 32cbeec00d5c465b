/**
 * Form pieces of the panel's forms: a labelled field with its one-line explanation under it and
 * its error (ours before sending, or the server's 422 naming it) right below.
 */
import type { ReactNode } from 'react';

export const inputClass =
  'h-8 w-full rounded-md border border-border bg-surface px-2 aria-[invalid=true]:border-danger';

export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p
          id={`${id}-error`}
          role="alert"
          className="whitespace-pre-line text-xs text-danger"
          data-testid={`error-${id}`}
        >
          {error}
        </p>
      )}
    </div>
  );
}

/** The aria wiring of an input inside `Field`. */
export function describedBy(id: string, error: string | undefined, hint = true) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby':
      [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
  } as const;
}

export function TextInput({
  id,
  value,
  onChange,
  error,
  placeholder,
  mono = false,
  type = 'text',
  hint = true,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  placeholder?: string;
  mono?: boolean;
  type?: 'text' | 'password' | 'url';
  hint?: boolean;
}) {
  return (
    <input
      {...describedBy(id, error, hint)}
      type={type}
      autoComplete="off"
      spellCheck={false}
      className={`${inputClass} ${mono ? 'font-mono text-xs' : ''}`}
      value={value}
      placeholder={placeholder}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** A multi-line text field (a list, one entry per line), wired like `TextInput`. */
export function TextArea({
  id,
  value,
  onChange,
  error,
  placeholder,
  rows = 4,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  placeholder?: string;
  rows?: number;
}) {
  return (
    <textarea
      {...describedBy(id, error)}
      rows={rows}
      autoComplete="off"
      spellCheck={false}
      className="w-full rounded-md border border-border bg-surface px-2 py-1 font-mono text-xs aria-[invalid=true]:border-danger"
      value={value}
      placeholder={placeholder}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** What a stored nullable text becomes in an input, and back (empty → null). */
export const toInput = (value: string | null | undefined) => value ?? '';
export const fromInput = (value: string) => (value.trim() === '' ? null : value.trim());
