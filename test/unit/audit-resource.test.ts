import assert from 'node:assert/strict';
import { auditOutcome, auditResource } from '../../api/audit-trail';

type Case = [path: string, params: Record<string, string>, result: unknown, expected: string, resource?: string];

describe('audit entry resource and outcome', () => {
  // Expected as `type id`: a path ending in a param names that pair; a create names what it made; an action (or a
  // failed create) names the last pair; a route that names its resource keeps it.
  const cases: Case[] = [
    ['/api/ai-agents/:agent', { agent: 'beta' }, undefined, 'ai-agents beta'],
    ['/api/ai-agents', {}, { data: { id: 'new' } }, 'ai-agents new'],
    ['/api/ai-agents/:agent/eval-sets', { agent: 'a' }, { data: { id: 's1' } }, 'eval-sets s1'],
    ['/api/ai-agents/:agent/eval-sets', { agent: 'a' }, undefined, 'ai-agents a'],
    ['/api/v1/mcp-servers/:id/test', { id: 'm1' }, { ok: true }, 'mcp-servers m1'],
    ['/api/ai-agents/:agent/eval-runs/:evalRun/cancel', { evalRun: 'r1' }, { data: { id: 'r1' } }, 'eval-runs r1'],
    ['/api/ai-agents/:agent/eval-sets/:set/run', { set: 's' }, { data: { id: 'r2' } }, 'eval-runs r2', 'eval-runs'],
    ['/api/ai-agents/:agent/publish', { agent: 'a' }, undefined, 'ai-agents a', 'ai-agents'],
    ['/api/workspaces/current/eval-judge-model', {}, { data: { judge_model: 'x' } }, 'eval-judge-model null'],
  ];
  for (const [path, params, result, expected, resource] of cases) {
    it(`names ${expected} for ${path} ${result === undefined ? 'failing' : 'answering'}`, () => {
      const got = auditResource({ method: 'post', path, resource }, params, result);
      assert.equal(`${got.type} ${got.id}`, expected);
    });
  }

  it('calls 1xx–3xx success, a 403 denied and any other error failed', () => {
    const outcomes = [200, 204, 302, 403, 401, 404, 422, 500].map(auditOutcome);
    assert.deepEqual(outcomes, ['success', 'success', 'success', 'denied', 'failed', 'failed', 'failed', 'failed']);
  });
});
