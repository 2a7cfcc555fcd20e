import assert from 'node:assert/strict';
import { argsMatch, valueMatches } from '../../domain/trajectory/arg-matchers';
import { callMatches } from '../../domain/trajectory/call-matching';
import { evalCaseBody } from '../../domain/eval/eval-fields';
import { LIMITS } from '../../domain/limits';
import { SEARCH, SEARCH_ARGS_CASES } from '../helpers/trajectory-fixtures';

// The fields zod names for a case whose first expected call has these args (and args_match).
function problems(tool_args: unknown, extra: Record<string, unknown> = {}): string[] {
  const parsed = evalCaseBody.safeParse({
    name: 'c',
    session_input: { message: 'hi' },
    expected_trajectory: [{ tool_name: 't', tool_args, ...extra }],
  });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('argument matchers', () => {
  for (const [name, expected, accepts] of SEARCH_ARGS_CASES) {
    it(`${accepts ? 'accepts' : 'refuses'} the search call: ${name}`, () => {
      assert.equal(callMatches(expected, SEARCH), accepts);
    });
  }

  it('applies matchers inside nested objects and arrays', () => {
    const expected = { filter: { from: { $regex: '^2025-' }, seats: [{ $number: { max: 3 } }, { $any: true }] } };
    assert.equal(argsMatch(expected, { filter: { seats: [1, 'x'], from: '2025-05-01' } }), true);
    assert.equal(argsMatch(expected, { filter: { seats: [4, 'x'], from: '2025-05-01' } }), false);
    assert.equal(argsMatch(expected, { filter: { seats: [1], from: '2025-05-01' } }), false);
  });

  it('compares nested objects exactly under subset: only the top-level keys may be more', () => {
    assert.equal(argsMatch({ a: { b: 1 } }, { a: { b: 1 }, c: 2 }, 'subset'), true);
    assert.equal(argsMatch({ a: { b: 1 } }, { a: { b: 1, c: 2 } }, 'subset'), false);
  });

  it('runs $regex on RE2 as a search, case-sensitive unless the pattern says (?i)', () => {
    assert.equal(valueMatches({ $regex: 'b+' }, 'abbc'), true);
    assert.equal(valueMatches({ $regex: 'LIS' }, 'lis'), false);
    assert.equal(valueMatches({ $regex: '(?i)LIS' }, 'lis'), true);
    // Linear whatever the text: a backtracking engine takes exponential time on this one.
    assert.equal(valueMatches({ $regex: '^(a+)+$' }, `${'a'.repeat(50_000)}b`), false);
  });

  it('treats a matcher-looking object as also matching itself, so a promoted call matches its own conversation', () => {
    assert.equal(valueMatches({ $regex: '^a' }, { $regex: '^a' }), true);
    assert.equal(valueMatches({ $regex: '^a' }, { $regex: '^b' }), false);
    // Objects with other $ keys (a MongoDB filter) are literal values.
    assert.equal(argsMatch({ q: { $gt: 5 } }, { q: { $gt: 5 } }), true);
    assert.equal(argsMatch({ q: { $gt: 5 } }, { q: 6 }), false);
  });

  it('accepts nothing by the rule of a stored matcher validation would refuse, without throwing', () => {
    assert.equal(valueMatches({ $regex: '((' }, '(('), false);
    assert.equal(valueMatches({ $regex: '((' }, { $regex: '((' }), true);
    assert.equal(valueMatches({ $any: false }, 'x'), false);
    assert.equal(valueMatches({ $number: 'big' }, 5), false);
    assert.equal(valueMatches({ $number: { min: '1' } }, 5), false);
  });

  describe('validation', () => {
    it('accepts valid matchers and args_match', () => {
      assert.deepEqual(problems({ id: { $regex: '^[0-9]+$' }, n: { $number: { min: 0 } }, x: { $any: true } }), []);
      assert.deepEqual(problems({}, { args_match: 'subset' }), []);
    });

    it('names the field of an invalid matcher or mode', () => {
      assert.deepEqual(problems({ id: { $regex: '(a' } }), ['expected_trajectory.0.tool_args.id.$regex']);
      assert.deepEqual(problems({ id: { $regex: '(a)\\1' } }), ['expected_trajectory.0.tool_args.id.$regex']);
      assert.deepEqual(problems({ id: { $regex: 'a'.repeat(LIMITS.argPatternChars + 1) } }), [
        'expected_trajectory.0.tool_args.id.$regex',
      ]);
      assert.deepEqual(problems({ id: { $regex: 7 } }), ['expected_trajectory.0.tool_args.id.$regex']);
      assert.deepEqual(problems({ id: { $any: false } }), ['expected_trajectory.0.tool_args.id.$any']);
      assert.deepEqual(problems({ n: { $number: { min: 'a' } } }), ['expected_trajectory.0.tool_args.n.$number.min']);
      assert.deepEqual(problems({ n: { $number: { min: 5, max: 1 } } }), [
        'expected_trajectory.0.tool_args.n.$number.min',
      ]);
      assert.deepEqual(problems({ n: { $number: { between: 1 } } }), ['expected_trajectory.0.tool_args.n.$number']);
      assert.deepEqual(problems({ a: [{ b: { $any: 1 } }] }), ['expected_trajectory.0.tool_args.a.0.b.$any']);
      assert.deepEqual(problems({}, { args_match: 'fuzzy' }), ['expected_trajectory.0.args_match']);
    });

    it('names trajectory_match when the mode is unknown', () => {
      const parsed = evalCaseBody.safeParse({ name: 'c', session_input: { message: 'hi' }, trajectory_match: 'loose' });
      assert.equal(parsed.success, false);
      assert.deepEqual(
        parsed.error?.issues.map((issue) => issue.path.join('.')),
        ['trajectory_match'],
      );
    });
  });
});
