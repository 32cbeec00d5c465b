import { describe, expect, it } from 'vitest';
import { humanise, sectionsOf } from './structured';

describe('structured fields as sections', () => {
  it("reads a developer's plan in order: approach, steps, considerations, risks with mitigations", () => {
    const sections = sectionsOf(
      {
        risks: [{ risk: 'The export is slow', mitigation: 'Stream the rows' }],
        steps: [{ title: 'Write the route', description: 'GET /export streaming CSV rows.' }],
        approach: 'Stream the rows straight from the query.',
        technical_considerations: ['Use the cursor', 'Keep memory flat'],
        open_questions: [],
        by: 'be-dev-1',
        at: '2026-11-28T05:00:00.000Z',
      },
      ['by', 'at'],
    );
    expect(sections.map((s) => s.heading)).toEqual([
      'Approach',
      'Steps',
      'Technical considerations',
      'Risks',
    ]);
    expect(sections[0]!.block).toEqual({ kind: 'text', text: 'Stream the rows straight from the query.' });
    expect(sections[1]!.block).toEqual({
      kind: 'items',
      ordered: true,
      items: [{ title: 'Write the route', lines: [{ label: '', text: 'GET /export streaming CSV rows.' }] }],
    });
    expect(sections[2]!.block).toEqual({
      kind: 'list',
      ordered: false,
      items: ['Use the cursor', 'Keep memory flat'],
    });
    expect(sections[3]!.block).toEqual({
      kind: 'items',
      ordered: false,
      items: [{ title: 'The export is slow', lines: [{ label: 'Mitigation', text: 'Stream the rows' }] }],
    });
  });

  it("reads a PM's plan with its sub-tasks, and any other field under a human heading, never as JSON", () => {
    const sections = sectionsOf({
      summary: 'Split the work.',
      sub_tasks: [{ title: 'Health endpoint', description: 'Add GET /health.' }],
      rollout: { flag: 'health_v2', percent: 10 },
      estimate_hours: 3,
    });
    expect(sections.map((s) => s.heading)).toEqual(['Summary', 'Sub-tasks', 'Rollout', 'Estimate hours']);
    expect(sections[2]!.block).toEqual({
      kind: 'fields',
      fields: [
        { label: 'Flag', text: 'health_v2' },
        { label: 'Percent', text: '10' },
      ],
    });
    expect(JSON.stringify(sections)).not.toContain('{\\"');
  });

  it('humanises keys', () => {
    expect(humanise('technical_considerations')).toBe('Technical considerations');
    expect(humanise('pr-review')).toBe('Pr review');
  });
});
