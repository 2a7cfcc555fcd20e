import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

const TURNS = [
  {
    user_message: 'Find me a flight to Lisbon',
    expected_trajectory: [{ tool_name: 'search_flights', tool_args: { to: 'LIS' } }],
    expected_response: 'TP123 leaves at 9:00.',
  },
  { user_message: 'Book it', expected_response: 'Booked TP123.', rubrics: ['Confirms the flight number'] },
];

const CONVERSATION_TURNS = [
  {
    user_message: 'Find me a flight to Lisbon',
    tool_calls: [{ tool_name: 'search_flights', tool_args: { to: 'LIS' }, result: ['TP123'] }],
    final_response: 'TP123 leaves at 9:00.',
  },
  {
    user_message: 'Book it',
    tool_calls: [{ tool_name: 'book_flight', tool_args: { flight: 'TP123' } }],
    final_response: 'Booked TP123.',
  },
];

describe('cases and conversations of many turns', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof evalApi>;
  let setId: string;

  before(async () => {
    platform = await createTestPlatform(await harness());
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('travel', 'gpt-4o');
    setId = (await api.evalSet('travel', { name: 'trips' })).id;
  });
  after(async () => platform?.close());

  it('writes a case of turns, mirrors turn 0 into the single-turn fields, and reads a one-turn case as one turn', async () => {
    const created = await api.addCase('travel', setId, {
      name: 'book',
      session_input: { locale: 'pt-PT', message: TURNS[0].user_message },
      turns: TURNS,
      rubrics: ['Stays polite over the whole conversation'],
      state: { tier: 'gold' },
      final_state: { booked: 'TP123' },
    });
    assert.deepEqual(created.turns, TURNS);
    assert.deepEqual(created.session_input, { locale: 'pt-PT', message: TURNS[0].user_message });
    assert.deepEqual(created.expected_trajectory, TURNS[0].expected_trajectory);
    assert.equal(created.expected_final_response, 'TP123 leaves at 9:00.');
    assert.deepEqual(created.rubrics, ['Stays polite over the whole conversation']);
    assert.deepEqual([created.state, created.final_state], [{ tier: 'gold' }, { booked: 'TP123' }]);

    const single = await api.addCase('travel', setId, {
      name: 'one',
      session_input: { message: 'Hi' },
      expected_final_response: 'Hello',
    });
    assert.deepEqual(single.turns, [{ user_message: 'Hi', expected_trajectory: null, expected_response: 'Hello' }]);
    assert.deepEqual([single.state, single.final_state, single.conversation_scenario], [null, null, null]);

    // A single-turn field in an update changes turn 0 of a case of turns.
    const path = `/api/ai-agents/travel/eval-sets/${setId}/cases/${created.id}`;
    const patched = (await api.send('patch', path, 200, { expected_final_response: 'TP123 at 9.' })).data;
    assert.equal(patched.turns[0].expected_response, 'TP123 at 9.');
    assert.deepEqual(patched.turns[1], TURNS[1]);
    assert.equal(patched.expected_final_response, 'TP123 at 9.');
  });

  it('refuses a case of turns with single-turn expectations beside them, or a message that is not turn 0, naming the field', async () => {
    const path = `/api/ai-agents/travel/eval-sets/${setId}/cases`;
    const fieldsOf = async (body: Record<string, unknown>): Promise<string[]> =>
      (await api.send('post', path, 422, { name: 'bad', ...body })).error.details.map(
        (d: { field: string }) => d.field,
      );
    assert.deepEqual(await fieldsOf({ turns: TURNS, expected_final_response: 'x' }), ['expected_final_response']);
    assert.deepEqual(await fieldsOf({ turns: TURNS, session_input: { message: 'other' } }), ['session_input.message']);
    assert.deepEqual(await fieldsOf({ turns: [] }), ['turns']);
    assert.deepEqual(await fieldsOf({ turns: [{ user_message: ' ' }] }), ['turns.0.user_message']);
    assert.deepEqual(await fieldsOf({}), ['session_input']);
    const tooMany = Array.from({ length: 51 }, (_, i) => ({ user_message: `turn ${i}` }));
    assert.deepEqual(await fieldsOf({ turns: tooMany }), ['turns']);
    const listed = (await api.send('get', `${path}?limit=50`, 200)).data;
    assert.ok(listed.every((c: { name: string }) => c.name !== 'bad'));
  });

  it('keeps a conversation scenario whole and starts the case from its prompt', async () => {
    const scenario = {
      starting_prompt: 'I want to fly somewhere warm',
      conversation_plan: 'Ask for Lisbon, then book.',
    };
    const created = await api.addCase('travel', setId, { name: 'scenario', conversation_scenario: scenario });
    assert.deepEqual(created.conversation_scenario, scenario);
    assert.deepEqual(created.turns, []);
    assert.equal(created.session_input.message, scenario.starting_prompt);
  });

  it('imports a conversation of turns, sums it up in the single-turn fields and promotes it to a case of turns', async () => {
    const run = await api.importRun('travel', { session_input: { channel: 'web' }, turns: CONVERSATION_TURNS });
    assert.deepEqual(run.turns, CONVERSATION_TURNS);
    assert.deepEqual(run.session_input, { channel: 'web', message: 'Find me a flight to Lisbon' });
    assert.deepEqual(
      run.tool_calls.map((c: { tool_name: string }) => c.tool_name),
      ['search_flights', 'book_flight'],
    );
    assert.equal(run.final_response, 'Booked TP123.');
    assert.equal(run.messages.length, 4);

    const promoted = await api.promote('travel', run.id, setId, 'promoted');
    assert.deepEqual(promoted.turns, [
      {
        user_message: 'Find me a flight to Lisbon',
        expected_trajectory: [{ tool_name: 'search_flights', tool_args: { to: 'LIS' } }],
        expected_response: 'TP123 leaves at 9:00.',
      },
      {
        user_message: 'Book it',
        expected_trajectory: [{ tool_name: 'book_flight', tool_args: { flight: 'TP123' } }],
        expected_response: 'Booked TP123.',
      },
    ]);
    assert.equal(promoted.source_run_id, run.id);

    const oneTurn = await api.importRun('travel', { session_input: { message: 'Hi' }, final_response: 'Hello!' });
    assert.equal(oneTurn.turns, null);
  });

  it('takes conversations of turns in a batch import, keyed by case', async () => {
    const batch = await api.send('post', `/api/ai-agents/travel/runs/import/batch?eval_set=${setId}`, 201, [
      { case: 'book', turns: CONVERSATION_TURNS },
      { case: 'one', session_input: { message: 'Hi' }, final_response: 'Hello' },
    ]);
    const ids = batch.data.conversations as Record<string, string>;
    const stored = await Promise.all(
      Object.values(ids).map(async (id) => (await api.send('get', `/api/ai-agents/travel/runs/${id}`, 200)).data),
    );
    assert.deepEqual(stored.map((c) => (c.turns ? c.turns.length : 1)).sort(), [1, 2]);
    const bad = await api.send('post', `/api/ai-agents/travel/runs/import/batch?eval_set=${setId}`, 422, [
      { case: 'book', turns: CONVERSATION_TURNS, tool_calls: [] },
    ]);
    assert.equal(bad.error.details[0].field, 'items[0].tool_calls');
  });

  it('refuses a conversation mixing turns with single-turn fields, naming the field', async () => {
    const fieldsOf = async (body: Record<string, unknown>): Promise<string[]> =>
      (await api.send('post', '/api/ai-agents/travel/runs/import', 422, body)).error.details.map(
        (d: { field: string }) => d.field,
      );
    assert.deepEqual(await fieldsOf({ turns: CONVERSATION_TURNS, final_response: 'x' }), ['final_response']);
    assert.deepEqual(await fieldsOf({ turns: CONVERSATION_TURNS, session_input: { message: 'no' } }), [
      'session_input.message',
    ]);
    assert.deepEqual(await fieldsOf({ session_input: { message: 'Hi' } }), ['final_response']);
  });

  it('writes and reads a case of turns in an eval set file', async () => {
    const exported = (await api.send('get', `/api/ai-agents/travel/eval-sets/${setId}/export`, 200)) as {
      cases: Array<Record<string, unknown>>;
    };
    const schema = (await request(platform.app).get('/schemas/eval-set.json').expect(200)).body;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    assert.equal(validate(exported), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...exported, cases: [{ name: 'x', session_input: { locale: 'pt' } }] }), false);
    const book = exported.cases.find((c) => c.name === 'book');
    assert.ok(book);
    assert.equal(book.expected_final_response, undefined);
    assert.deepEqual((book.turns as unknown[]).length, 2);
    assert.deepEqual(book.state, { tier: 'gold' });
    const other = (await api.evalSet('travel', { name: 'copy' })).id;
    const imported = await api.send('post', `/api/ai-agents/travel/eval-sets/${other}/cases/import`, 200, {
      ...exported,
      name: 'copy',
    });
    assert.ok(imported);
    const copy = (await api.send('get', `/api/ai-agents/travel/eval-sets/${other}/cases?limit=50`, 200)).data;
    const copied = copy.find((c: { name: string }) => c.name === 'book');
    assert.deepEqual(copied.turns, book.turns);
    assert.deepEqual(copied.final_state, { booked: 'TP123' });
  });
});
