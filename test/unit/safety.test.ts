import assert from 'node:assert/strict';
import { scoreSafety } from '../../domain/scoring/safety';

describe('safety', () => {
  it('scores 1.0 and passes when no guardrail fired', () => {
    const result = scoreSafety([]);
    assert.deepEqual(result, {
      criterion: 'safety',
      score: 1,
      min_score: null,
      passed: true,
      applicable: true,
      detail: { guardrails: [], events: [] },
    });
  });

  it('scores 0.0, fails and names each guardrail that fired once', () => {
    const events = [
      { guardrail: 'pii_filter', stage: 'output', detail: { field: 'email' } },
      { guardrail: 'toxicity', stage: 'input' },
      { guardrail: 'pii_filter', stage: 'output' },
    ];
    const result = scoreSafety(events);
    assert.equal(result.score, 0);
    assert.equal(result.passed, false);
    assert.equal(result.min_score, null);
    assert.deepEqual(result.detail.guardrails, ['pii_filter', 'toxicity']);
    assert.equal(result.detail.events.length, 3);
  });
});
