import assert from 'node:assert/strict';
import {
  baselineQuery,
  MAX_TIMEOUT_SECONDS,
  parseBaseline,
  parseMinPassRate,
  parseRegressionGate,
  parseTags,
  parseTimeout,
} from '../../cli/eval-gate-options';

describe('agent:eval options', () => {
  it('takes a minimum pass rate from 0 to 1 only', () => {
    assert.equal(parseMinPassRate('0.9'), 0.9);
    assert.equal(parseMinPassRate('1'), 1);
    for (const bad of ['', ' ', 'abc', '-0.1', '1.01', 'NaN', 'Infinity'])
      assert.throws(() => parseMinPassRate(bad), /--min-pass-rate must be a number from 0 to 1/, bad);
  });

  it('takes a timeout of whole seconds from 1 to a week, or none', () => {
    assert.equal(parseTimeout(undefined), null);
    assert.equal(parseTimeout('90'), 90);
    assert.equal(parseTimeout(String(MAX_TIMEOUT_SECONDS)), MAX_TIMEOUT_SECONDS);
    for (const bad of ['0', '1.5', '-3', 'ten', '', String(MAX_TIMEOUT_SECONDS + 1)])
      assert.throws(() => parseTimeout(bad), /--timeout must be whole seconds from 1 to 604800/, bad);
  });

  it('takes at most 10 distinct tags of the allowed characters, dropping duplicates', () => {
    assert.deepEqual(parseTags(undefined), []);
    assert.deepEqual(parseTags(['main', 'a1b2c3', 'main', 'refs/heads/x@1+2:y_z.-']), [
      'main',
      'a1b2c3',
      'refs/heads/x@1+2:y_z.-',
    ]);
    assert.throws(() => parseTags(['has space']), /--tag "has space": may only hold letters, digits and/);
    assert.throws(() => parseTags(['']), /--tag "": /);
    assert.throws(() => parseTags(['x'.repeat(101)]), /--tag "x+": /);
    assert.deepEqual(parseTags(Array.from({ length: 10 }, (_, i) => `t${i}`)).length, 10);
    assert.throws(() => parseTags(Array.from({ length: 11 }, (_, i) => `t${i}`)), /at most 10 times/);
  });

  it('takes a baseline run id, last-completed or tag:<name>, and gives back the query value', () => {
    assert.equal(parseBaseline(undefined), null);
    const id = '0B5F6C1E-3F7A-4C2B-9D1E-2A3B4C5D6E7F';
    assert.deepEqual(parseBaseline(id), { kind: 'run', id: id.toLowerCase() });
    assert.deepEqual(parseBaseline('last-completed'), { kind: 'last-completed' });
    assert.deepEqual(parseBaseline('tag:main'), { kind: 'tag', tag: 'main' });
    for (const value of [id.toLowerCase(), 'last-completed', 'tag:main'])
      assert.equal(baselineQuery(parseBaseline(value) ?? { kind: 'last-completed' }), value);
    assert.throws(() => parseBaseline('latest'), /--baseline must be a run id, last-completed or tag:<name>/);
    assert.throws(() => parseBaseline('tag:'), /--baseline tag:: tag: /);
    assert.throws(() => parseBaseline('tag:a b'), /--baseline tag:a b: tag: may only hold letters/);
  });
});

describe('agent:eval --fail-on-regression and --alpha', () => {
  it('reads the bare flag as `any`, takes `significant` with an alpha in (0, 1), default 0.05', () => {
    assert.equal(parseRegressionGate(undefined, undefined), null);
    assert.deepEqual(parseRegressionGate(true, undefined), { mode: 'any', alpha: 0.05 });
    assert.deepEqual(parseRegressionGate('any', undefined), { mode: 'any', alpha: 0.05 });
    assert.deepEqual(parseRegressionGate('significant', '0.01'), { mode: 'significant', alpha: 0.01 });
    assert.throws(() => parseRegressionGate('some', undefined), /--fail-on-regression must be any or significant/);
    for (const bad of ['0', '1', '-0.1', 'x', ''])
      assert.throws(() => parseRegressionGate('significant', bad), /--alpha must be a number above 0 and below 1/, bad);
    assert.throws(() => parseRegressionGate(true, '0.1'), /--alpha needs --fail-on-regression significant/);
    assert.throws(() => parseRegressionGate(undefined, '0.1'), /--alpha needs --fail-on-regression significant/);
  });
});
