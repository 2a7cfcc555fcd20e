import assert from 'node:assert/strict';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

const CONVERSATION = {
  session_input: { message: 'ignored when messages are given', locale: 'pt-BR' },
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Book a table for two' },
    { role: 'assistant', content: 'Booked for 8pm.' },
    { role: 'user', content: 'Thanks' },
  ],
  tool_calls: [{ tool_name: 'book_table', tool_args: { people: 2, time: '20:00' }, result: { ok: true } }],
  final_response: 'Booked for 8pm.',
  model: 'gpt-4o',
  token_usage: { prompt_tokens: 120, completion_tokens: 30 },
};

describe('conversations, eval sets and eval cases', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof evalApi>;

  before(async () => {
    platform = await createTestPlatform(await harness());
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('concierge', 'claude-sonnet-4-5');
    await api.agent('other', 'gpt-4o');
  });
  after(async () => platform?.close());

  it('imports a conversation, lists the newest first and reads it back; another workspace gets 404', async () => {
    const minimal = await api.importRun('concierge', { session_input: { message: 'Hi' }, final_response: 'Hello!' });
    assert.equal(minimal.source, 'imported');
    assert.deepEqual(minimal.messages, [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
    assert.deepEqual([minimal.tool_calls, minimal.guardrail_events, minimal.model], [[], [], null]);
    const full = await api.importRun('concierge', CONVERSATION);
    const listed = (await api.send('get', '/api/ai-agents/concierge/runs?limit=2', 200)).data;
    assert.deepEqual(
      listed.map((c: { id: string }) => c.id),
      [full.id, minimal.id],
    );
    const read = (await api.send('get', `/api/ai-agents/concierge/runs/${full.id}`, 200)).data;
    assert.deepEqual(read.tool_calls, CONVERSATION.tool_calls);
    assert.deepEqual(read.token_usage, CONVERSATION.token_usage);
    await api.send('get', `/api/ai-agents/other/runs/${full.id}`, 404);
    const stranger = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await stranger.agent('concierge', 'gpt-4o');
    await stranger.send('get', `/api/ai-agents/concierge/runs/${full.id}`, 404);
  });

  it('refuses conversations with a blank message, non-object tool args or no final response, naming the field', async () => {
    const fieldOf = async (body: Record<string, unknown>): Promise<string> =>
      (await api.send('post', '/api/ai-agents/concierge/runs/import', 422, body)).error.details[0].field;
    assert.equal(await fieldOf({ session_input: { message: '  ' }, final_response: 'x' }), 'session_input.message');
    assert.equal(
      await fieldOf({
        session_input: { message: 'a' },
        final_response: 'x',
        tool_calls: [{ tool_name: 't', tool_args: [1] }],
      }),
      'tool_calls.0.tool_args',
    );
    assert.equal(await fieldOf({ session_input: { message: 'a' } }), 'final_response');
    assert.equal(
      await fieldOf({ session_input: { message: 'a' }, final_response: 'x', guardrail_events: [{ stage: 'input' }] }),
      'guardrail_events.0.guardrail',
    );
  });

  it('creates eval sets with the default minimum scores unless given, and merges updates into them', async () => {
    const plain = await api.evalSet('concierge', { name: 'regression' });
    assert.deepEqual(
      [plain.min_scores, plain.judge_samples],
      [{ tool_trajectory_avg_score: 1, final_response_match: 0.8, rubric_based: 0.7 }, 1],
    );
    const tuned = await api.evalSet('concierge', {
      name: 'tuned',
      min_scores: { rubric_based: 0.5 },
      judge_samples: 3,
    });
    assert.deepEqual(tuned.min_scores, { tool_trajectory_avg_score: 1, final_response_match: 0.8, rubric_based: 0.5 });
    const patched = (
      await api.send('patch', '/api/ai-agents/concierge/eval-sets/tuned', 200, {
        min_scores: { final_response_match: 0.6 },
      })
    ).data;
    assert.deepEqual(patched.min_scores, {
      tool_trajectory_avg_score: 1,
      final_response_match: 0.6,
      rubric_based: 0.5,
    });
    assert.equal((await api.send('get', `/api/ai-agents/concierge/eval-sets/${tuned.id}`, 200)).data.name, 'tuned');
    assert.deepEqual(
      (await api.send('get', '/api/ai-agents/concierge/eval-sets', 200)).data.map((s: { name: string }) => s.name),
      ['regression', 'tuned'],
    );
    assert.equal(
      (await api.send('post', '/api/ai-agents/concierge/eval-sets', 409, { name: 'tuned' })).error.details.field,
      'name',
    );
    const invalid = async (body: Record<string, unknown>): Promise<string> =>
      (await api.send('post', '/api/ai-agents/concierge/eval-sets', 422, body)).error.details[0].field;
    assert.equal(await invalid({ name: 'x', judge_samples: 10 }), 'judge_samples');
    assert.equal(await invalid({ name: 'x', min_scores: { rubric_based: 1.5 } }), 'min_scores.rubric_based');
    assert.equal(await invalid({ name: 'x', min_scores: { safety: 0.5 } }), 'min_scores');
    await api.send('delete', '/api/ai-agents/concierge/eval-sets/regression', 204);
    await api.send('get', '/api/ai-agents/concierge/eval-sets/regression', 404);
  });

  it('validates hand-written cases field by field, then lists, updates and deletes them', async () => {
    await api.evalSet('concierge', { name: 'cases' });
    const path = '/api/ai-agents/concierge/eval-sets/cases/cases';
    const fieldOf = async (body: Record<string, unknown>): Promise<string> =>
      (await api.send('post', path, 422, body)).error.details[0].field;
    const input = { session_input: { message: 'Book a table' } };
    assert.equal(await fieldOf({ ...input, name: ' ' }), 'name');
    assert.equal(await fieldOf({ name: 'n' }), 'session_input');
    assert.equal(await fieldOf({ name: 'n', session_input: { message: '' } }), 'session_input.message');
    assert.equal(
      await fieldOf({ ...input, name: 'n', expected_trajectory: [{ tool_args: {} }] }),
      'expected_trajectory.0.tool_name',
    );
    assert.equal(
      await fieldOf({ ...input, name: 'n', expected_trajectory: [{ tool_name: 't', tool_args: 'x' }] }),
      'expected_trajectory.0.tool_args',
    );
    assert.equal(await fieldOf({ ...input, name: 'n', rubrics: ['ok', ' '] }), 'rubrics.1');
    assert.equal(await fieldOf({ ...input, name: 'n', surprise: true }), '(body)');

    const created = await api.addCase('concierge', 'cases', {
      ...input,
      name: 'table',
      expected_trajectory: [],
      rubrics: ['confirms the time'],
    });
    assert.deepEqual(
      [created.expected_trajectory, created.expected_final_response, created.source_run_id, created.snapshot],
      [[], null, null, null],
    );
    const updated = (
      await api.send('patch', `${path}/${created.id}`, 200, { rubrics: null, expected_final_response: 'Booked.' })
    ).data;
    assert.deepEqual(
      [updated.rubrics, updated.expected_final_response, updated.expected_trajectory],
      [null, 'Booked.', []],
    );
    assert.deepEqual(
      (await api.send('get', path, 200)).data.map((c: { id: string }) => c.id),
      [created.id],
    );
    await api.send('delete', `${path}/${created.id}`, 204);
    await api.send('get', `${path}/${created.id}`, 404);
    await api.send('get', `${path}/not-a-uuid`, 404);
  });

  it("promotes a conversation to a case carrying its first user message, a snapshot and the source run's id", async () => {
    const set = await api.evalSet('concierge', { name: 'promoted' });
    const conversation = await api.importRun('concierge', CONVERSATION);
    const promoted = await api.promote('concierge', conversation.id, set.id);
    assert.equal(promoted.name, 'Book a table for two');
    assert.deepEqual(promoted.session_input, { message: 'Book a table for two', locale: 'pt-BR' });
    assert.equal(promoted.source_run_id, conversation.id);
    assert.deepEqual(promoted.snapshot, { tool_calls: CONVERSATION.tool_calls, final_response: 'Booked for 8pm.' });
    assert.deepEqual(promoted.expected_trajectory, [
      { tool_name: 'book_table', tool_args: { people: 2, time: '20:00' } },
    ]);
    assert.equal(promoted.expected_final_response, 'Booked for 8pm.');
    assert.equal((await api.promote('concierge', conversation.id, 'promoted', 'named')).name, 'named');
    const unknownSet = await api.send('post', `/api/ai-agents/concierge/runs/${conversation.id}/promote-to-case`, 422, {
      eval_set_id: 'nope',
    });
    assert.equal(unknownSet.error.details[0].field, 'eval_set_id');
    await api.send('post', `/api/ai-agents/other/runs/${conversation.id}/promote-to-case`, 404, {
      eval_set_id: set.id,
    });
  });
});
