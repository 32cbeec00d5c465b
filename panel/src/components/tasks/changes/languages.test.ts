import { describe, expect, it } from 'vitest';
import { languageOf } from './languages';

describe('languageOf', () => {
  it('names the grammar by extension or by file name, and nothing for what it does not know', () => {
    expect(languageOf('src/app.ts')).toBe('typescript');
    expect(languageOf('web/App.TSX')).toBe('tsx');
    expect(languageOf('README.md')).toBe('markdown');
    expect(languageOf('build/Makefile')).toBe('makefile');
    expect(languageOf('.env')).toBeNull();
    expect(languageOf('LICENSE')).toBeNull();
    expect(languageOf('data.parquet')).toBeNull();
  });
});
