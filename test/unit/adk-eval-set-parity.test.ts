import assert from 'node:assert/strict';
import { CANNOT_RUN } from '../../domain/eval/adk-eval-set';
import { snakeCase } from '../../domain/eval/adk-schema';
import { readEvalSetJson } from '../../domain/eval/eval-set-file.reader';
import { adkBatch } from '../helpers/adk-oracle';
import { fixtureJson } from '../helpers/adk-files';
import { adkText, evalSetBases, evalSetMutations } from '../helpers/eval-set-mutations';

const SEED = 39;
const MUTATIONS = 400;

// Assay refuses one thing ADK loads: a case it cannot run (no invocation, or an invocation without user text).
const cannotRun = (p: { field: string; message: string }): boolean =>
  p.message.startsWith(CANNOT_RUN) ||
  (p.field.endsWith('.user_content') && /message: must not be empty/.test(p.message));
const assayDecision = (value: unknown): boolean | 'cannot run' => {
  const read = readEvalSetJson(value);
  if ('cases' in read) return true;
  return 'problems' in read && read.problems.every(cannotRun) ? 'cannot run' : false;
};

// ADK's error locations (`eval_cases.0.conversation.0.intermediateData.IntermediateData.toolUses`) as Assay names
// fields (`eval_cases[0].conversation[0].intermediate_data.tool_uses`): union members dropped, aliases snake_case.
const UNION_MEMBERS = new Set(['IntermediateData', 'InvocationEvents', 'str', 'dict[str,any]']);
function adkLocations(error: string): string[] {
  const lines = error.split('\n').filter((line) => /^[A-Za-z_]/.test(line) && !/validation errors? for/.test(line));
  return lines.map((line) =>
    line
      .split('.')
      .filter((segment) => !UNION_MEMBERS.has(segment))
      .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${snakeCase(segment)}`))
      .join('')
      .replace(/^\./, ''),
  );
}
const within = (a: string, b: string): boolean => a === b || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);
const namesAdkField = (fields: string[], locations: string[]): boolean =>
  fields.some((field) => locations.some((loc) => within(field, loc) || within(loc, field)));

describe('ADK parity: which eval set files load (ADK 2.x EvalSet.model_validate_json)', function () {
  this.timeout(180_000);

  it('accepts every real ADK eval set file and every generated mutation exactly when ADK does', async () => {
    const bases = evalSetBases().map((b) => ({ file: b.file, change: 'none', value: b.value }));
    const asked = [...bases, ...evalSetMutations(SEED, MUTATIONS)];
    const adk = await adkBatch(asked.map((m) => ({ command: 'validate_eval_set', json: adkText(m.value) })));
    const refused = adk.filter((answer) => !answer.ok).length;
    const decisions = asked.map((mutation) => assayDecision(mutation.value));
    const disagreements = asked.flatMap((mutation, i) => {
      const assay = decisions[i];
      if ((assay === true) === adk[i].ok || assay === 'cannot run') return [];
      const why = adk[i].ok ? '' : ` (ADK: ${(adk[i] as { error: string }).error.split('\n').slice(0, 3).join(' | ')})`;
      return [
        `${mutation.file}: ${mutation.change}: assay ${assay === true ? 'accepts' : 'refuses'}, ADK ${adk[i].ok}${why}`,
      ];
    });
    assert.equal(
      disagreements.length,
      0,
      `seed ${SEED}: ${disagreements.length} of ${asked.length} decisions differ:\n${disagreements.join('\n')}`,
    );
    // Where both refuse, Assay names a field ADK names (or one inside or around it).
    const misnamed = asked.flatMap((mutation, i) => {
      const read = readEvalSetJson(mutation.value);
      const answer = adk[i];
      if (!('problems' in read) || answer.ok) return [];
      const fields = read.problems.map((p) => p.field);
      const locations = adkLocations(answer.error);
      return namesAdkField(fields, locations) ? [] : [`${mutation.change}: assay ${fields} ADK ${locations}`];
    });
    assert.deepEqual(misnamed, []);
    // Both decisions must be common, or the comparison says little; the cases Assay cannot run stay few.
    const unrunnable = decisions.filter((d) => d === 'cannot run').length;
    assert.ok(unrunnable < asked.length / 10, `Assay cannot run ${unrunnable} of ${asked.length}`);
    assert.ok(refused > asked.length / 5 && refused < asked.length * 0.8, `ADK refused ${refused} of ${asked.length}`);
  });

  it('imports what ADK 2.x keeps and Assay has no place for, naming each in a note', async () => {
    const file = fixtureJson('google-adk-python/simple_multi_turn_conversation.test.json');
    const [first] = file.eval_cases;
    first.conversation[0].intermediate_data.tool_uses = [{ id: null, args: null, name: null }];
    first.conversation[0].app_details = { agent_details: { root: { name: 'root' } } };
    first.labels = ['smoke'];
    const [adk] = await adkBatch([{ command: 'validate_eval_set', json: JSON.stringify(file) }]);
    assert.ok(adk.ok, JSON.stringify(adk));
    const read = readEvalSetJson(file);
    assert.ok('cases' in read, JSON.stringify(read));
    assert.deepEqual(read.cases[0].fields.turns?.[0].expected_trajectory, []);
    assert.deepEqual(
      read.notes?.map((note) => note.field),
      [
        'eval_cases[0].labels',
        'eval_cases[0].conversation[0].intermediate_data.tool_uses[0]',
        'eval_cases[0].conversation[0].app_details',
      ],
    );
  });

  it('refuses what ADK 2.x refuses, naming the ADK field', async () => {
    const file = fixtureJson('google-adk-python/simple_multi_turn_conversation.test.json');
    file.eval_cases[0].conversation[1].user_content.parts[0].Text = 'x';
    delete file.eval_set_id;
    const [adk] = await adkBatch([{ command: 'validate_eval_set', json: JSON.stringify(file) }]);
    assert.equal(adk.ok, false);
    const read = readEvalSetJson(file);
    assert.ok('problems' in read, JSON.stringify(read));
    assert.deepEqual(
      read.problems.map((p) => p.field),
      ['eval_set_id'],
    );
    file.eval_set_id = 'set';
    const again = readEvalSetJson(file);
    assert.ok('problems' in again, JSON.stringify(again));
    assert.deepEqual(
      again.problems.map((p) => [p.field, p.message]),
      [['eval_cases[0].conversation[1].user_content.parts[0]', 'Unrecognized key: "Text"']],
    );
  });
});
