import { describe, expect, it } from 'vitest';
import { filtersToParams, hasFilters, parseFilters, withFilters } from './filters';

const parse = (query: string) => parseFilters(new URLSearchParams(query));

describe('task filters in the URL', () => {
  it('reads states (in lifecycle order, once each), team, project, text, view and page', () => {
    const id = '0b5c2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
    expect(
      parse(
        `state=completed&state=pending&state=pending&team=backend&project=${id}&q=%20login%20&view=kanban&page=3`,
      ),
    ).toEqual({
      states: ['pending', 'completed'],
      team: 'backend',
      project: id,
      q: 'login',
      view: 'kanban',
      page: 3,
    });
  });

  it('drops what it does not know: unknown states and teams, a non-uuid project, a bad page', () => {
    expect(parse('state=done&team=sales&project=shop&page=-2&view=grid&q=%20')).toEqual({
      states: [],
      view: 'list',
      page: 1,
    });
  });

  it('writes back what it read, leaving defaults out', () => {
    const query = 'state=pending&state=blocked&team=frontend&q=health';
    expect(filtersToParams(parse(query)).toString()).toBe(
      'state=pending&state=blocked&team=frontend&q=health',
    );
    expect(filtersToParams(parse('view=list&page=1')).toString()).toBe('');
    expect(filtersToParams(parse('view=kanban&page=4')).toString()).toBe('view=kanban');
  });

  it('starts again at page 1 when a filter changes, and clears emptied filters', () => {
    const at3 = parse('team=backend&page=3');
    expect(withFilters(at3, { q: 'x' }).page).toBe(1);
    expect(withFilters(at3, { page: 4 }).page).toBe(4);
    expect(withFilters(at3, { team: undefined })).not.toHaveProperty('team');
    expect(hasFilters(parse('view=kanban'))).toBe(false);
    expect(hasFilters(parse('q=a'))).toBe(true);
  });
});
