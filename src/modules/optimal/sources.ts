/**
 * The knowledge sources optimal builds itself, over named reads of the modules that own the
 * content: review findings ('finding') and the task history ('task': title, description,
 * acceptance criteria and the notes of each role). Neither is ever deleted (findings are
 * append-only, tasks are never removed), so neither yields tombstones.
 */
import type { Db } from '../../platform/db/client.js';
import { type FindingChange, findingChangesSince } from '../findings/index.js';
import { type TaskChange, taskChangesSince } from '../tasks/index.js';
import type { KnowledgeItem, KnowledgeSource } from './types.js';

const firstWords = (text: string, words = 8) => {
  const list = text.split(/\s+/).filter(Boolean);
  return list.slice(0, words).join(' ') + (list.length > words ? '…' : '');
};

function noteText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(noteText).filter(Boolean).join('\n');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => {
        const text = noteText(inner);
        return text ? `${key}: ${text}` : '';
      })
      .filter(Boolean)
      .join('\n');
  return String(value);
}

export function taskItem(task: TaskChange): KnowledgeItem {
  const criteria = task.acceptanceCriteria.map((c) => `- ${c.text}`).join('\n');
  const notes = Object.entries(task.notes)
    .map(([role, value]) => {
      const text = noteText(value);
      return text ? `Notes (${role}):\n${text}` : '';
    })
    .filter(Boolean);
  const body = [task.description, criteria ? `Acceptance criteria:\n${criteria}` : '', ...notes]
    .filter(Boolean)
    .join('\n\n');
  return {
    source: 'task',
    ref: task.id,
    project_id: task.projectId,
    title: task.title,
    body,
    updated_at: task.updatedAt,
    deleted: false,
    url: `/api/tasks/${task.id}`,
  };
}

export function findingItem(finding: FindingChange): KnowledgeItem {
  const where = finding.file ? (finding.line ? `${finding.file}:${finding.line}` : finding.file) : null;
  const lines = [
    `Finding (${finding.origin}, ${finding.severity}, ${finding.status}) on task "${finding.taskTitle}"`,
    where ? `Where: ${where}` : '',
    finding.criterion ? `Criterion: ${finding.criterion}` : '',
    `Expected: ${finding.expected}`,
    `Actual: ${finding.actual}`,
    `Fix: ${finding.fix}`,
    finding.evidence ? `Evidence: ${finding.evidence}` : '',
    finding.resolutionNote ? `Resolution: ${finding.resolutionNote}` : '',
  ];
  return {
    source: 'finding',
    ref: finding.id,
    project_id: finding.projectId,
    title: `${finding.severity} finding: ${firstWords(finding.expected)}`,
    body: lines.filter(Boolean).join('\n'),
    updated_at: finding.updatedAt,
    deleted: false,
    url: `/api/tasks/${finding.taskId}/findings`,
  };
}

export const tasksKnowledgeSource = (db: Db): KnowledgeSource => ({
  kind: 'task',
  changedSince: async (after, limit) => (await taskChangesSince(db, after, limit)).map(taskItem),
});

export const findingsKnowledgeSource = (db: Db): KnowledgeSource => ({
  kind: 'finding',
  changedSince: async (after, limit) => (await findingChangesSince(db, after, limit)).map(findingItem),
});
