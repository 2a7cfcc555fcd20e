import assert from 'node:assert/strict';
import { TRAJECTORY_MATCH_MODES } from '../../domain/trajectory/trajectory-modes';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';
import { ACTUAL, BY_MODE, EXPECTED } from '../helpers/trajectory-fixtures';

const CONVERSATION = {
  session_input: { message: 'Book me a flight to Lisbon for two' },
  tool_calls: ACTUAL,
  final_response: 'Booked TP123; the receipt is in your inbox.',
};
// The same expectations written loosely: a pattern, a range, any value, args ignored.
const LOOSE = [
  { tool_name: 'search_flights', tool_args: { to: { $regex: '^L' }, passengers: { $number: { min: 1, max: 9 } } } },
  { tool_name: 'book_flight', tool_args: {}, args_match: 'ignore' },
  { tool_name: 'send_receipt', tool_args: { email: { $any: true } } },
];
const casePath = (set: string, id = '') => `/api/ai-agents/travel/eval-sets/${set}/cases${id ? `/${id}` : ''}`;

describe('trajectory match modes in an eval run', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let api: ReturnType<typeof evalApi>;
  let conversationId: string;
  const caseIds: Record<string, string> = {};

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judgeReplies({}));
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('travel', 'gpt-4o');
    await api.connect('openai', 'sk-workspace-openai-key-0001', llm.baseUrl);
    conversationId = (await api.importRun('travel', CONVERSATION)).id;
    await api.evalSet('travel', { name: 'modes' });
    for (const mode of TRAJECTORY_MATCH_MODES) {
      const body = { name: mode, session_input: CONVERSATION.session_input, expected_trajectory: EXPECTED };
      const created = await api.addCase('travel', 'modes', { ...body, trajectory_match: mode });
      assert.equal(created.trajectory_match, mode);
      caseIds[mode] = created.id;
    }
    const loose = { name: 'loose', session_input: CONVERSATION.session_input, expected_trajectory: LOOSE };
    caseIds.loose = (await api.addCase('travel', 'modes', { ...loose, trajectory_match: 'in_order' })).id;
    caseIds.default = (await api.addCase('travel', 'modes', { ...loose, name: 'default' })).id;
  });

  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('gives each mode its hand-computed score, and the summary their mean', async () => {
    const conversations = Object.fromEntries(Object.values(caseIds).map((id) => [id, conversationId]));
    const queued = await api.trigger('travel', 'modes', { run_selection: 'explicit', conversations });
    const run = await api.waitForEnd('travel', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const byCase = Object.fromEntries((await api.results('travel', run.id)).map((r) => [r.case_name, r]));
    for (const mode of TRAJECTORY_MATCH_MODES) {
      const trajectory = byCase[mode].criteria.tool_trajectory_avg_score;
      const want = BY_MODE[mode];
      assert.equal(trajectory.score, want.score, mode);
      assert.equal(trajectory.detail.mode, mode);
      assert.deepEqual(
        trajectory.detail.matched.map((m: { expected_index: number; actual_index: number }) => [
          m.expected_index,
          m.actual_index,
        ]),
        want.matched,
        mode,
      );
      assert.deepEqual(
        trajectory.detail.missing.map((m: { expected_index: number }) => m.expected_index),
        want.missing,
      );
      assert.deepEqual(
        trajectory.detail.extra.map((m: { actual_index: number }) => m.actual_index),
        want.extra,
      );
      assert.equal(byCase[mode].status, want.score === 1 ? 'passed' : 'failed', mode);
    }
    // The matchers accept every call, so the loose expectations score as the exact ones do: in_order 2/3, lcs 2/4.
    assert.equal(byCase.loose.criteria.tool_trajectory_avg_score.score, 2 / 3);
    assert.deepEqual(
      byCase.loose.criteria.tool_trajectory_avg_score.detail.matched.map(
        (m: { actual_tool_args: unknown }) => m.actual_tool_args,
      ),
      [ACTUAL[0].tool_args, ACTUAL[2].tool_args],
    );
    assert.equal(byCase.default.criteria.tool_trajectory_avg_score.score, 2 / 4);
    assert.equal(byCase.default.criteria.tool_trajectory_avg_score.detail.mode, 'lcs');
    // By hand: 1/4, 2/3, 1, 1/2, 1/2 (partial), 6/7 (f1), 2/3, 1/2 over eight cases; only any_order passes at 1.0.
    assert.equal(run.summary.avg_score.tool_trajectory_avg_score.toFixed(12), (415 / 672).toFixed(12));
    assert.deepEqual(run.summary.counts, { total: 8, passed: 1, failed: 7, error: 0 });
  });

  it('promotes a conversation with the mode given, which the case keeps and reads back', async () => {
    const promoted = await api.send('post', `/api/ai-agents/travel/runs/${conversationId}/promote-to-case`, 201, {
      eval_set_id: 'modes',
      name: 'promoted',
      trajectory_match: 'any_order',
    });
    assert.equal(promoted.data.trajectory_match, 'any_order');
    const read = await api.send('get', casePath('modes', promoted.data.id), 200);
    assert.equal(read.data.trajectory_match, 'any_order');
    assert.deepEqual(read.data.expected_trajectory, ACTUAL);
  });

  it('updates a case mode and refuses a bad mode, args_match or matcher naming the field, changing nothing', async () => {
    const updated = await api.send('patch', casePath('modes', caseIds.default), 200, { trajectory_match: 'exact' });
    assert.equal(updated.data.trajectory_match, 'exact');
    assert.deepEqual(updated.data.expected_trajectory, LOOSE);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ trajectory_match: 'fuzzy' }, 'trajectory_match'],
      [{ expected_trajectory: [{ ...LOOSE[0], args_match: 'most' }] }, 'expected_trajectory.0.args_match'],
      [
        { expected_trajectory: [{ tool_name: 'x', tool_args: { id: { $regex: '(?<=a)b' } } }] },
        'expected_trajectory.0.tool_args.id.$regex',
      ],
      [
        { expected_trajectory: [{ tool_name: 'x', tool_args: { n: { $number: { min: 2, max: 1 } } } }] },
        'expected_trajectory.0.tool_args.n.$number.min',
      ],
    ];
    for (const [body, field] of bad) {
      const res = await api.send('patch', casePath('modes', caseIds.default), 422, body);
      assert.equal(res.error.code, 'validation_failed');
      assert.equal(res.error.details[0].field, field);
      const create = await api.send('post', casePath('modes'), 422, {
        name: 'bad',
        session_input: { message: 'x' },
        ...body,
      });
      assert.equal(create.error.details[0].field, field);
    }
    const after = await api.send('get', casePath('modes', caseIds.default), 200);
    assert.equal(after.data.trajectory_match, 'exact');
    assert.deepEqual(after.data.expected_trajectory, LOOSE);
    const names = (await api.send('get', casePath('modes'), 200)).data.map((c: { name: string }) => c.name);
    assert.ok(!names.includes('bad'));
  });

  it('exports and imports the mode and the matchers; an ADK file imports with lcs', async () => {
    const file = await api.send('get', '/api/ai-agents/travel/eval-sets/modes/export', 200);
    const exported = Object.fromEntries(file.cases.map((c: { name: string }) => [c.name, c]));
    assert.equal(exported.any_order.trajectory_match, 'any_order');
    assert.equal(exported.loose.trajectory_match, 'in_order');
    assert.deepEqual(exported.loose.expected_trajectory, LOOSE);

    await api.evalSet('travel', { name: 'copy' });
    const imported = await api.send('post', '/api/ai-agents/travel/eval-sets/copy/cases/import', 200, file);
    assert.equal(imported.data.created, file.cases.length);
    const again = await api.send('post', '/api/ai-agents/travel/eval-sets/copy/cases/import', 200, file);
    assert.equal(again.data.unchanged, file.cases.length);
    const copy = await api.send('get', '/api/ai-agents/travel/eval-sets/copy/export', 200);
    assert.deepEqual(copy.cases, file.cases);

    const changed = { ...file, cases: [{ ...exported.loose, trajectory_match: 'any_order' }] };
    const update = await api.send('post', '/api/ai-agents/travel/eval-sets/copy/cases/import', 200, changed);
    assert.deepEqual([update.data.updated, update.data.unchanged], [1, 0]);

    const adk = {
      eval_set_id: 'adk',
      eval_cases: [
        {
          eval_id: 'adk case',
          conversation: [
            {
              user_content: { parts: [{ text: 'Book Lisbon' }] },
              intermediate_data: { tool_uses: [{ name: 'search_flights', args: { to: 'LIS' } }] },
            },
          ],
        },
      ],
    };
    await api.send('post', '/api/ai-agents/travel/eval-sets/copy/cases/import', 200, adk);
    const adkCase = (await api.send('get', casePath('copy'), 200)).data.find(
      (c: { name: string }) => c.name === 'adk case',
    );
    assert.equal(adkCase.trajectory_match, 'lcs');
  });
});
