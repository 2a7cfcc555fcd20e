import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { runAssay, servedPlatform, type CliResult, type ServedPlatform } from '../helpers/assay-cli';
import { judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { ORDER_CASE, ORDER_CONVERSATION, ORDER_CONVERSATION_RIGHT } from '../helpers/multi-turn-order';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';

const TRAJ = 'tool_trajectory_avg_score';
const MATCH = 'final_response_match';

describe('agent:eval and compare on a multi-turn case', function () {
  this.timeout(180_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  let tmpDir: string;
  let api: ServedPlatform['api'];
  const cli = (args: string[]): Promise<CliResult> =>
    runAssay(['agent:eval', 'turn-bot', 'orders', ...args], served.env);
  const conversationsFile = (name: string, conversation: Record<string, unknown>): string => {
    const file = path.join(tmpDir, name);
    fs.writeFileSync(file, JSON.stringify({ ...conversation, case: ORDER_CASE.name }));
    return file;
  };

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'turns-'));
    llm = await startScriptedLlm(judgeReplies({}));
    served = await servedPlatform(h, llm, 'turn-bot');
    api = served.api;
    const set = await api.evalSet('turn-bot', { name: 'orders' });
    await api.addCase('turn-bot', set.id, ORDER_CASE);
    const oneTurn = await api.importRun('turn-bot', {
      session_input: { message: 'Where is order 1?' },
      tool_calls: [{ tool_name: 'lookup_order', tool_args: { id: 1 } }],
      final_response: 'Your order shipped.',
    });
    await api.promote('turn-bot', oneTurn.id, set.id, 'order status');
  });
  after(async () => {
    await served?.close();
    await llm?.close();
  });

  it('prints the turns, names the turn that failed first in --detailed, JUnit and the comparison with a baseline', async () => {
    const base = await cli([
      '--conversations',
      conversationsFile('right.json', ORDER_CONVERSATION_RIGHT),
      '--tag',
      'main',
    ]);
    assert.equal(base.code, 0, base.stdout + base.stderr);
    assert.match(base.stdout, /cancel and refund an order\s*│\s*PASSED\s*│\s*4\/4 passed\s*│/);
    assert.match(base.stdout, /order status\s*│\s*PASSED\s*│\s*-\s*│/);

    const junit = path.join(tmpDir, 'turns.xml');
    const args = ['--conversations', conversationsFile('wrong.json', ORDER_CONVERSATION), '--detailed'];
    const head = await cli([...args, '--baseline', 'tag:main', '--junit', junit]);
    assert.equal(head.code, 1, head.stderr);
    const out = head.stdout;
    assert.match(out, /cancel and refund an order\s*│\s*FAILED\s*│\s*2\/4 passed, turn 1 failed first\s*│/);
    assert.match(out, new RegExp(`cancel and refund an order › ${TRAJ}: 0\\.50 < 1\\.00`));
    assert.match(
      out,
      /\n {4}turn 1: missing: cancel_order\(\{"id":2001\}\)\n {4}turn 1: extra: lookup_order\(\{"id":2001\}\)/,
    );
    assert.match(
      out,
      new RegExp(`cancel and refund an order › turn 1 failed first: ${TRAJ} 0\\.00 < 1\\.00, ${MATCH} 0\\.00 < 0\\.80`),
    );
    assert.match(out, /\n {4}turn 3 missing FAIL: .*\(the agent gave no turn 3\)/);
    assert.match(
      out,
      /REGRESSED cancel and refund an order: passed → failed; first failed turn none → turn 1; tool_trajectory_avg_score 1\.00 → 0\.50/,
    );

    const xml = fs.readFileSync(junit, 'utf8');
    assert.equal(XMLValidator.validate(xml), true);
    const parser = new XMLParser({
      ignoreAttributes: false,
      htmlEntities: true,
      isArray: (name) => name === 'testcase',
    });
    const cases = parser.parse(xml).testsuites.testsuite.testcase;
    const multi = cases.find((c: any) => c['@_name'] === ORDER_CASE.name);
    assert.equal(multi.failure['@_message'], `turn 1 failed first: ${TRAJ} 0.00 < 1.00, ${MATCH} 0.00 < 0.80`);
    assert.deepEqual(
      multi['system-out'].split('\n').map((l: string) => l.split(':')[0]),
      ['turn 0 pass', 'turn 1 FAIL', 'turn 2 pass', 'turn 3 missing FAIL'],
    );
    const single = cases.find((c: any) => c['@_name'] === 'order status');
    assert.equal(single['system-out'], undefined);

    const runs = (await api.send('get', '/api/ai-agents/turn-bot/eval-sets/orders/runs', 200)).data;
    const compared = (
      await api.send('get', `/api/ai-agents/turn-bot/eval-runs/${runs[0].id}/compare?baseline=tag:main`, 200)
    ).data;
    const byName = new Map(compared.cases.map((c: any) => [c.case_name, c]));
    assert.deepEqual((byName.get(ORDER_CASE.name) as any).first_failed_turn, { run: 1, baseline: null });
    assert.equal('first_failed_turn' in (byName.get('order status') as any), false);
  });
});
