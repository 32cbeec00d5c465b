/** A row of buttons choosing one value (a period, a filter): the chosen one is primary and pressed. */
import type { ReactNode } from 'react';
import { Button } from './button';

export function ChoiceButtons<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  /** Said to screen readers only. */
  legend: string;
  options: readonly { value: T; label: ReactNode }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex gap-1">
      <legend className="sr-only">{legend}</legend>
      {options.map((option) => (
        <Button
          key={option.value}
          size="sm"
          variant={option.value === value ? 'primary' : 'secondary'}
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </fieldset>
  );
}
