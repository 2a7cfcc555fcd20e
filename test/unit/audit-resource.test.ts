import assert from 'node:assert/strict';
import { auditOutcome, auditResource } from '../../api/audit-trail';

describe('audit entry resource and outcome', () => {
  const cases: Array<
    [string, string, Record<string, string>, unknown, string | undefined, [string | null, string | null]]
  > = [
    [
      'a path ending in a param names that pair',
      '/api/ai-agents/:agent',
      { agent: 'beta' },
      undefined,
      undefined,
      ['ai-agents', 'beta'],
    ],
    ['a create names the new resource', '/api/ai-agents', {}, { data: { id: 'new' } }, undefined, ['ai-agents', 'new']],
    [
      'a create under a parent names the new child',
      '/api/ai-agents/:agent/eval-sets',
      { agent: 'a' },
      { data: { id: 's1' } },
      undefined,
      ['eval-sets', 's1'],
    ],
    [
      'a failed create under a parent names the parent',
      '/api/ai-agents/:agent/eval-sets',
      { agent: 'a' },
      undefined,
      undefined,
      ['ai-agents', 'a'],
    ],
    [
      'an action on a resource names it',
      '/api/v1/mcp-servers/:id/test',
      { id: 'm1' },
      { ok: true },
      undefined,
      ['mcp-servers', 'm1'],
    ],
    [
      'an action answering with the same id names the resource',
      '/api/ai-agents/:agent/eval-runs/:evalRun/cancel',
      { agent: 'a', evalRun: 'r1' },
      { data: { id: 'r1' } },
      undefined,
      ['eval-runs', 'r1'],
    ],
    [
      'a route naming its resource keeps it',
      '/api/ai-agents/:agent/eval-sets/:set/run',
      { agent: 'a', set: 's' },
      { data: { id: 'r2' } },
      'eval-runs',
      ['eval-runs', 'r2'],
    ],
    [
      'a failed action of a route naming its resource keeps the pair of that kind',
      '/api/ai-agents/:agent/publish',
      { agent: 'a' },
      undefined,
      'ai-agents',
      ['ai-agents', 'a'],
    ],
    [
      'a singleton names its segment without an id',
      '/api/workspaces/current/eval-judge-model',
      {},
      { data: { judge_model: 'x' } },
      undefined,
      ['eval-judge-model', null],
    ],
  ];
  for (const [name, path, params, result, resource, expected] of cases) {
    it(name, () => {
      const got = auditResource({ method: 'post', path, resource }, params, result);
      assert.deepEqual([got.type, got.id], expected);
    });
  }

  it('calls 1xx–3xx success, a 403 denied and any other error failed', () => {
    assert.deepEqual([200, 204, 302, 403, 401, 404, 422, 500].map(auditOutcome), [
      'success',
      'success',
      'success',
      'denied',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
  });
});
