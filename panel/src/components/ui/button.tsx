/** Buttons: `primary` (indigo, the one main action), `secondary`, `danger` (red: stops or removes), `ghost`. */
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
  const sizing = size === 'sm' ? 'h-7 px-2 text-xs' : 'h-8 px-3 text-[13px]';
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md border font-medium whitespace-nowrap disabled:cursor-not-allowed disabled:opacity-50 ${sizing} ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
}
