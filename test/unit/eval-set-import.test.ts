import assert from 'node:assert/strict';
import {
  fileSetSettings,
  parseJsonLines,
  readEvalSetJson,
  readEvalSetJsonLines,
  type ImportCase,
  type ImportRead,
  type LocatedCase,
} from '../../domain/eval/eval-set-file.reader';
import { EVAL_SET_FILE_FORMAT, toEvalSetFile } from '../../domain/eval/eval-set-file.schema';
import { planCaseImport, type StoredCase } from '../../domain/eval/eval-set-import';
import { LIMITS } from '../../domain/limits';
import { ADK_FIXTURE_CASES, ADK_FIXTURE_MULTI_TURN, adkFixture } from '../helpers/adk-fixture';

const caseOf = (name: string, message = `ask ${name}`): ImportCase => ({
  name,
  session_input: { message },
  expected_trajectory: null,
  trajectory_match: 'lcs',
  expected_final_response: null,
  rubrics: null,
});
const located = (fields: ImportCase, index = 0): LocatedCase => ({ at: `cases[${index}]`, nameField: 'name', fields });

function casesOf(read: ImportRead): ImportCase[] {
  assert.ok('cases' in read, JSON.stringify(read));
  return read.cases.map((c) => c.fields);
}

describe('eval set files (domain)', () => {
  describe('ADK eval sets', () => {
    it('maps the first invocation: user text to the message, tool uses to the trajectory, final text, eval_id, rubrics', () => {
      const file = adkFixture();
      file.eval_cases.pop();
      const read = readEvalSetJson(file);
      assert.ok('format' in read && read.format === 'adk');
      assert.deepEqual(read.set, { name: 'support', description: 'Support agent cases written for ADK' });
      assert.deepEqual(casesOf(read), ADK_FIXTURE_CASES);
    });

    it('reads a multi-turn case as a case of turns, and reads the calls of invocation events', () => {
      const multi = casesOf(readEvalSetJson(adkFixture()))[3];
      assert.deepEqual(multi, ADK_FIXTURE_MULTI_TURN);
      const events = readEvalSetJson({
        evalSetId: 'x',
        evalCases: [
          {
            evalId: 'events',
            conversation: [
              {
                userContent: { parts: [{ text: 'Look up 1' }] },
                intermediateData: {
                  invocationEvents: [
                    { author: 'bot', content: { parts: [{ functionCall: { name: 'lookup', args: { id: 1 } } }] } },
                  ],
                },
              },
            ],
          },
        ],
      });
      assert.deepEqual(casesOf(events)[0].expected_trajectory, [{ tool_name: 'lookup', tool_args: { id: 1 } }]);
    });

    it('reads a test file in the old ADK format (a list of queries) as ADK migrates it: one case', () => {
      const read = readEvalSetJson([{ query: 'hi', expected_tool_use: [], reference: 'hello' }], { legacyName: 'q' });
      assert.deepEqual(casesOf(read), [
        {
          name: 'q',
          session_input: { message: 'hi' },
          expected_trajectory: [],
          trajectory_match: 'lcs',
          expected_final_response: 'hello',
          rubrics: null,
        },
      ]);
      const list = readEvalSetJson([{ name: 'not a query' }]);
      assert.ok('problems' in list);
      assert.equal(list.problems[0].field, '(body)');
    });

    it('names an empty user text and a missing eval_id by their ADK fields', () => {
      const read = readEvalSetJson({
        eval_set_id: 'bad',
        eval_cases: [{ eval_id: 'blank', conversation: [{ user_content: { parts: [{ text: ' ' }] } }] }, {}],
      });
      assert.ok('problems' in read);
      assert.deepEqual(
        read.problems.map((p) => p.field),
        ['eval_cases[0].conversation[0].user_content', 'eval_cases[1].eval_id'],
      );
      assert.match(read.problems[0].message, /^session_input\.message: must not be empty/);
    });
  });

  describe('Assay files and JSONL', () => {
    it('names every invalid case by position and field, and a repeated name at its second use', () => {
      const read = readEvalSetJson({
        format: EVAL_SET_FILE_FORMAT,
        name: 'set',
        cases: [
          { name: 'ok', session_input: { message: 'hi' } },
          { name: 'no message', session_input: {} },
          { name: 'ok', session_input: { message: 'again' } },
          { name: 'bad call', session_input: { message: 'x' }, expected_trajectory: [{ tool_args: {} }], extra: 1 },
        ],
      });
      assert.ok('problems' in read);
      assert.deepEqual(
        read.problems.map((p) => p.field),
        ['cases[1].session_input.message', 'cases[2].name', 'cases[3].expected_trajectory[0].tool_name', 'cases[3]'],
      );
      const duplicates = readEvalSetJson({
        format: EVAL_SET_FILE_FORMAT,
        name: 'set',
        cases: [caseOf('a'), caseOf('a')],
      });
      assert.ok('problems' in duplicates);
      assert.deepEqual(duplicates.problems, [
        { field: 'cases[1].name', message: 'the name is already used by cases[0]' },
      ]);
    });

    it('counts cases over casesPerEvalSet before validating them', () => {
      const many = Array.from({ length: LIMITS.casesPerEvalSet + 1 }, () => ({}));
      assert.deepEqual(readEvalSetJson({ format: EVAL_SET_FILE_FORMAT, name: 's', cases: many }), {
        tooMany: LIMITS.casesPerEvalSet + 1,
      });
      assert.deepEqual(readEvalSetJson({ eval_set_id: 's', eval_cases: many }), {
        tooMany: LIMITS.casesPerEvalSet + 1,
      });
      assert.deepEqual(parseJsonLines('{}\n'.repeat(LIMITS.casesPerEvalSet + 1)), {
        tooMany: LIMITS.casesPerEvalSet + 1,
      });
    });

    it('reads JSONL one case a line, skipping blank lines and naming a line that is not JSON', () => {
      const lines = parseJsonLines(
        '{"name":"a","session_input":{"message":"hi"}}\n\n{"name":"b","session_input":{"message":"yo"}}\r\n',
      );
      assert.ok('values' in lines);
      assert.deepEqual(casesOf(readEvalSetJsonLines(lines.values)), [caseOf('a', 'hi'), caseOf('b', 'yo')]);
      assert.deepEqual(parseJsonLines('{"name":"a"}\n{oops'), {
        problems: [{ field: 'cases[1]', message: 'the line is not valid JSON' }],
      });
    });
  });

  describe('planCaseImport', () => {
    const stored = (id: string, fields: ImportCase): StoredCase => ({ id, ...fields });

    it('creates new names, updates changed cases, counts equal ones unchanged whatever their key order', () => {
      const existing = [
        stored('1', { ...caseOf('same'), session_input: { message: 'ask same', locale: 'en' } }),
        stored('2', caseOf('changed')),
        stored('3', caseOf('untouched')),
      ];
      const plan = planCaseImport(existing, [
        located({ ...caseOf('same'), session_input: { locale: 'en', message: 'ask same' } }),
        located({ ...caseOf('changed'), rubrics: ['Is polite'] }, 1),
        located(caseOf('new'), 2),
      ]);
      assert.deepEqual(plan, {
        create: [caseOf('new')],
        update: [{ id: '2', fields: { ...caseOf('changed'), rubrics: ['Is polite'] } }],
        unchanged: 1,
      });
    });

    it('refuses a name the set holds twice, naming the case of the file', () => {
      const plan = planCaseImport(
        [stored('1', caseOf('twin')), stored('2', caseOf('twin'))],
        [located(caseOf('twin'), 4)],
      );
      assert.ok('problems' in plan);
      assert.equal(plan.problems[0].field, 'cases[4].name');
      assert.match(plan.problems[0].message, /holds 2 cases named twin/);
    });
  });

  it('reads the settings of a file to create its set: all of an Assay file, name and description of an ADK one', () => {
    const file = { format: EVAL_SET_FILE_FORMAT, name: 's', judge_samples: 2, cases: [{}] };
    assert.deepEqual(fileSetSettings(file), { name: 's', judge_samples: 2 });
    assert.deepEqual(fileSetSettings({ ...file, judge_samples: 20 }), { name: 's' });
    assert.deepEqual(fileSetSettings({ evalSetId: 'id', evalCases: [] }), { name: 'id', description: undefined });
  });

  it('writes a file with complete settings and cases in name order, which reads back to the same cases', () => {
    const settings = {
      name: 'set',
      description: 'd',
      min_scores: { tool_trajectory_avg_score: 1, final_response_match: 0.5, rubric_based: 0.7 },
      judge_samples: 3,
    };
    const file = toEvalSetFile(settings, [caseOf('b'), caseOf('a')]);
    assert.deepEqual(
      file.cases.map((c) => c.name),
      ['a', 'b'],
    );
    const read = readEvalSetJson(JSON.parse(JSON.stringify(file)));
    assert.ok('format' in read && read.format === 'assay');
    assert.deepEqual(read.set, settings);
    assert.deepEqual(casesOf(read), [caseOf('a'), caseOf('b')]);
  });
});
