/**
 * Light/dark theme: the `data-theme` attribute on <html> switches the CSS variables; remembered per
 * browser. The phone's status bar (`theme-color`) follows: the header's colour of the theme in force.
 */
import { useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';
const KEY = 'gaffer-theme';

export function initialTheme(): Theme {
  const stored = localStorage.getItem(KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The header's surface colour of each theme (styles.css `--surface`). */
const BAR_COLOUR: Record<Theme, string> = { light: '#ffffff', dark: '#171a21' };

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = BAR_COLOUR[theme];
  }
}

export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(
    () => (document.documentElement.dataset.theme as Theme) ?? initialTheme(),
  );
  useEffect(() => {
    applyTheme(theme);
    localStorage.setItem(KEY, theme);
  }, [theme]);
  return [theme, () => setTheme((t) => (t === 'dark' ? 'light' : 'dark'))];
}
