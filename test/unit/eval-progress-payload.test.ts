import assert from 'node:assert/strict';
import { parseEvalProgress, PROGRESS_FLUSH_MAX } from '../../db/eval-progress';

const RUN = { run_id: 'r1', workspace_id: 'w1' };

describe('eval progress payloads', () => {
  it("expands a flush into one event per case, each with the run's scored count as of that case", () => {
    const payload = JSON.stringify({
      ...RUN,
      scored: 12,
      total: 20,
      cases: [
        { case_id: 'a', status: 'passed' },
        { case_id: 'b', status: 'error' },
        { case_id: 'c', status: 'failed' },
      ],
    });
    assert.deepEqual(parseEvalProgress(payload), [
      { ...RUN, scored: 10, total: 20, case_id: 'a', status: 'passed' },
      { ...RUN, scored: 11, total: 20, case_id: 'b', status: 'error' },
      { ...RUN, scored: 12, total: 20, case_id: 'c', status: 'failed' },
    ]);
  });

  it('passes a run_status event through as it is', () => {
    const event = { ...RUN, type: 'run_status', status: 'cancelled' };
    assert.deepEqual(parseEvalProgress(JSON.stringify(event)), [event]);
  });

  it('refuses a flush over the bound, an unknown status and anything that is not a payload of the channel', () => {
    const cases = Array.from({ length: PROGRESS_FLUSH_MAX + 1 }, (_, i) => ({ case_id: `c${i}`, status: 'passed' }));
    assert.equal(parseEvalProgress(JSON.stringify({ ...RUN, scored: 51, total: 60, cases })), undefined);
    const unknown = { ...RUN, scored: 1, total: 1, cases: [{ case_id: 'a', status: 'pending' }] };
    assert.equal(parseEvalProgress(JSON.stringify(unknown)), undefined);
    assert.equal(parseEvalProgress('not json'), undefined);
    assert.equal(parseEvalProgress(undefined), undefined);
  });
});
