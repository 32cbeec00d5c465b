/**
 * Whether the screen is desktop-wide (Tailwind's `lg`, 1024 px and up), for what a phone or a tablet
 * does not get at all (the split diff) rather than gets laid out differently (which CSS does).
 */
import { useSyncExternalStore } from 'react';

const WIDE = '(min-width: 1024px)';

export function useWideScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(WIDE).matches,
  );
}
