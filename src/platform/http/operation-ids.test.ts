/** The operationId rules: conventional names from method and path, and the hand-named exceptions. */
import { describe, expect, it } from 'vitest';
import { operationIdOf } from './operation-ids.js';

describe('operationIdOf', () => {
  it.each([
    ['GET', '/api/tasks', 'listTasks'],
    ['POST', '/api/tasks', 'createTask'],
    ['GET', '/api/tasks/:id', 'getTask'],
    ['PATCH', '/api/tasks/:id', 'updateTask'],
    ['POST', '/api/tasks/:id/approve-and-merge', 'approveAndMergeTask'],
    ['POST', '/api/tasks/:id/request-changes', 'requestChangesTask'],
    ['GET', '/api/tasks/:id/changes', 'getTaskChanges'],
    ['GET', '/api/tasks/:id/events', 'listTaskEvents'],
    ['POST', '/api/a2a/conversations/:id/messages', 'createA2aConversationMessage'],
    ['POST', '/api/work-sessions', 'createWorkSession'],
    ['GET', '/api/pitches/:id', 'getPitch'],
    ['GET', '/api/journals/:agent/entries', 'listJournalEntries'],
    ['GET', '/api/journal-entries/:id', 'getJournalEntry'],
    ['GET', '/api/usage/summary', 'getUsageSummary'],
    ['PUT', '/api/company-goals', 'setCompanyGoals'],
    ['PUT', '/api/settings/:key', 'updateSetting'],
    ['POST', '/api/telegram/credentials', 'setTelegramCredentials'],
    ['POST', '/api/git/branches/cleanup', 'cleanupGitBranches'],
    ['DELETE', '/api/products/:id', 'deleteProduct'],
    ['POST', '/api/v1/flow/cell_pm/give_me_work', 'cellPmGiveMeWork'],
    ['GET', '/health', 'getHealth'],
    ['GET', '/', 'getRoot'],
  ])('%s %s → %s', (method, url, id) => {
    expect(operationIdOf(method, url)).toBe(id);
  });

  it('takes the hand-given names where the rules would name badly, whatever the parameter syntax', () => {
    expect(operationIdOf('POST', '/api/auth/session')).toBe('createAuthSession');
    expect(operationIdOf('POST', '/api/v1/do')).toBe('callDoTool');
    expect(operationIdOf('GET', '/api/stream/:agent_id')).toBe('listAgentRuns');
    expect(operationIdOf('GET', '/api/stream/{agent_id}')).toBe('listAgentRuns');
  });
});
