import { describe, expect, it } from 'vitest';
import { boundedDetail, DETAIL_MAX, executionView, NEVER_EXECUTED } from './execution-state.js';

describe('executionView', () => {
  it('shows nothing before the first approve (or after a rejection)', () => {
    expect(executionView(null)).toEqual(NEVER_EXECUTED);
    expect(executionView({ status: 'rejected', step: null, detail: null, live: false })).toEqual(
      NEVER_EXECUTED,
    );
  });

  it('shows a running approve as in flight while its heartbeat is fresh', () => {
    expect(executionView({ status: 'running', step: 'release_ci', detail: 'waiting', live: true })).toEqual({
      execute_status: 'running',
      execute_detail: 'waiting',
      execute_in_flight: true,
    });
  });

  it('reads a running row whose heartbeat lapsed as an interrupted approve, naming the step', () => {
    const view = executionView({ status: 'running', step: 'release_ci', detail: 'waiting', live: false });
    expect(view).toMatchObject({ execute_status: 'failed_interrupted', execute_in_flight: false });
    expect(view.execute_detail).toMatch(
      /^the approve in flight stopped at step "release_ci" .*approve again to resume/,
    );
  });

  it('passes finished outcomes through, and an unknown one as an error', () => {
    expect(executionView({ status: 'failed_head_ci', step: 'head_ci', detail: 'red', live: false })).toEqual({
      execute_status: 'failed_head_ci',
      execute_detail: 'red',
      execute_in_flight: false,
    });
    expect(executionView({ status: 'weird', step: null, detail: 'x', live: false }).execute_status).toBe(
      'failed_error',
    );
  });

  it('keeps details short', () => {
    expect(boundedDetail(`  ${'x'.repeat(DETAIL_MAX + 50)}  `)).toHaveLength(DETAIL_MAX);
    expect(boundedDetail(' short ')).toBe('short');
  });
});
