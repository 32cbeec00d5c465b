import { describe, expect, it } from 'vitest';
import { paletteScore, taskSearchTerm } from './match';

describe('paletteScore', () => {
  const task = 'task 1a2b3c4d-0000-4000-8000-00000000abcd';

  it('matches a task by id prefix first, and by words of its title', () => {
    expect(paletteScore(task, '1a2b3c', ['Rotate the signing keys'])).toBe(1);
    expect(paletteScore(task, 'signing ROTATE', ['Rotate the signing keys'])).toBe(0.5);
    expect(paletteScore(task, 'abcd', ['Rotate the signing keys'])).toBe(0.5);
  });

  it('does not match scattered letters of an id, or a word that is not there', () => {
    expect(paletteScore(task, '1234', ['Rotate the signing keys'])).toBe(0);
    expect(paletteScore(task, 'rotate keys later', ['Rotate the signing keys'])).toBe(0);
  });

  it('matches everything when nothing is typed', () => {
    expect(paletteScore('page Inbox', '  ')).toBe(1);
  });
});

describe('taskSearchTerm', () => {
  it('asks the server for the longest word typed, or for the latest tasks when nothing is', () => {
    expect(taskSearchTerm('  signing ROTATE ')).toBe('signing');
    expect(taskSearchTerm('1a2b3c')).toBe('1a2b3c');
    expect(taskSearchTerm('   ')).toBe('');
  });
});
