import { describe, expect, it } from 'vitest';
import { panelLinkOf } from './panel-link.js';

describe('the panel page of a relayed notification', () => {
  const task = (status: string, source = 'manual') => ({
    id: 'b70796f9-6edc-43de-af76-171e28c9b0c7',
    status,
    source,
  });

  it('is none without GAFFER_PUBLIC_URL (no address a phone could open)', () => {
    expect(panelLinkOf(undefined, task('pending'))).toBeNull();
  });

  it('opens a task awaiting the CEO on its change, another task on its page', () => {
    expect(panelLinkOf('https://gaffer.example.com/', task('awaiting_ceo_approval'))).toBe(
      'https://gaffer.example.com/tasks/b70796f9-6edc-43de-af76-171e28c9b0c7/changes',
    );
    expect(panelLinkOf('https://gaffer.example.com', task('blocked'))).toBe(
      'https://gaffer.example.com/tasks/b70796f9-6edc-43de-af76-171e28c9b0c7',
    );
  });

  it('opens the release proposal on the inbox, and a notification about no task on the notifications page', () => {
    expect(panelLinkOf('https://gaffer.example.com', task('pending', 'release_manager'))).toBe(
      'https://gaffer.example.com/',
    );
    expect(panelLinkOf('https://gaffer.example.com/gaffer', null)).toBe(
      'https://gaffer.example.com/gaffer/notifications',
    );
  });
});
