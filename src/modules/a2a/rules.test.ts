/** The pure A2A rules: reply-then-wait, duplicate suppression, responses, participants. */
import { describe, expect, it } from 'vitest';
import {
  findDuplicate,
  isParticipant,
  otherParticipant,
  requiresResponse,
  responseProblems,
  withinCeoReplyBudget,
} from './rules.js';

describe('withinCeoReplyBudget', () => {
  it.each([
    [0, 1, true],
    [1, 2, true],
    [1, 1, false],
    [2, 1, false],
    [0, 0, false],
  ])('sender %i vs ceo %i → %s', (sender, ceo, allowed) => {
    expect(withinCeoReplyBudget({ sender, ceo })).toBe(allowed);
  });
});

describe('findDuplicate', () => {
  const unread = [
    { id: 'm1', senderId: 'a', kind: 'message', body: 'hello' },
    { id: 'm2', senderId: 'a', kind: 'request', body: 'please review' },
  ];
  it('finds an identical unread message', () => {
    expect(findDuplicate({ senderId: 'a', kind: 'message', body: 'hello' }, unread)?.id).toBe('m1');
  });
  it('differs on kind, body or sender', () => {
    expect(findDuplicate({ senderId: 'a', kind: 'request', body: 'hello' }, unread)).toBeNull();
    expect(findDuplicate({ senderId: 'a', kind: 'message', body: 'hello!' }, unread)).toBeNull();
    expect(findDuplicate({ senderId: 'b', kind: 'message', body: 'hello' }, unread)).toBeNull();
  });
  it('finds nothing once everything is read', () => {
    expect(findDuplicate({ senderId: 'a', kind: 'message', body: 'hello' }, [])).toBeNull();
  });
});

describe('responseProblems', () => {
  const base = { senderId: 'a', conversationId: 'c1' };
  it('accepts a plain message and a request without response_to_id', () => {
    expect(responseProblems({ ...base, kind: 'message', responseToId: null }, null)).toEqual([]);
    expect(responseProblems({ ...base, kind: 'request', responseToId: null }, null)).toEqual([]);
  });
  it('refuses response_to_id on a non-response', () => {
    expect(responseProblems({ ...base, kind: 'message', responseToId: 'm1' }, null)).toHaveLength(1);
  });
  it('requires a response to answer the other participant in the same conversation', () => {
    const answer = { ...base, kind: 'response' as const, responseToId: 'm1' };
    expect(responseProblems({ ...answer, responseToId: null }, null)).toHaveLength(1);
    expect(responseProblems(answer, null)).toHaveLength(1);
    expect(responseProblems(answer, { conversationId: 'c2', senderId: 'b' })).toHaveLength(1);
    expect(responseProblems(answer, { conversationId: 'c1', senderId: 'a' })).toHaveLength(1);
    expect(responseProblems(answer, { conversationId: 'c1', senderId: 'b' })).toEqual([]);
  });
});

describe('participants', () => {
  const c = { participantA: 'a', participantB: 'b' };
  it('names the other side and who belongs', () => {
    expect(otherParticipant(c, 'a')).toBe('b');
    expect(otherParticipant(c, 'b')).toBe('a');
    expect(isParticipant(c, 'a')).toBe(true);
    expect(isParticipant(c, 'x')).toBe(false);
  });
  it('a request always requires a response', () => {
    expect(requiresResponse('request', false)).toBe(true);
    expect(requiresResponse('message', undefined)).toBe(false);
    expect(requiresResponse('message', true)).toBe(true);
  });
});
