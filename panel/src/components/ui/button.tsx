/**
 * Buttons: `primary` (indigo, the one main action), `secondary`, `danger` (red: stops or removes),
 * `ghost`. Below `lg` (phones and tablets) every button is a 44 × 44 px touch target at least (WCAG 2.5.5); `data-variant`
 * names the kind (the phone tests find the primary actions by it).
 */
import type { ButtonHTMLAttributes } from 'react';

const VARIANTS = {
  primary: 'bg-accent text-accent-text hover:opacity-90 border-transparent',
  secondary: 'bg-surface text-text border-border hover:bg-surface-2',
  danger: 'bg-danger text-white border-transparent hover:opacity-90 dark:text-black',
  ghost: 'bg-transparent text-text border-transparent hover:bg-surface-2',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: 'sm' | 'md';
}

export function Button({
  variant = 'secondary',
  size = 'md',
  className = '',
  type = 'button',
  ...props
}: ButtonProps) {
  const sizing = size === 'sm' ? 'lg:h-7 px-2 text-xs' : 'lg:h-8 px-3 text-[13px]';
  return (
    <button
      type={type}
      data-variant={variant}
      className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-md border font-medium whitespace-nowrap disabled:cursor-not-allowed disabled:opacity-50 lg:min-h-0 lg:min-w-0 ${sizing} ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
