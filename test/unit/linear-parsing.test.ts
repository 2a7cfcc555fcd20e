import assert from 'node:assert/strict';
import fc from 'fast-check';
import { expressionsIn, referenceProblem } from '../../domain/flow/flow-expression';
import { parseMatchVerdict } from '../../domain/scoring/judge-output.parser';
import { costInPlainScans } from '../helpers/relative-cost';

const MB = 1 << 20;
// As in guardrail-linear-time: tens of plain scans for a linear parse, about a million for a quadratic one.
const LINEAR_BOUND = 1_000;

describe('parsing builder and model text in linear time', () => {
  it('refuses a flow parameter of {{ and a megabyte of spaces within a bounded number of plain scans', () => {
    for (const template of [`{{${' '.repeat(MB)}`, `{{${' '.repeat(MB)}}}`, '{{ a '.repeat(MB / 5)]) {
      const cost = costInPlainScans(template, () => referenceProblem({ text: template }, []), 2);
      assert.ok(cost < LINEAR_BOUND, `${JSON.stringify(template.slice(0, 8))}…: ${cost.toFixed(0)} plain scans`);
    }
  });

  it('finds the same flow expressions as the pattern it replaces', () => {
    const OLD_EXPRESSION = /\{\{\s*([^{}]*?)\s*\}\}/g;
    const text = fc.array(fc.constantFrom('{', '}', '{{', '}}', ' ', '\n', 'a', 'nodes.n1', '\u00a0'), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, (parts) => {
        const template = parts.join('');
        assert.deepEqual(
          expressionsIn(template),
          [...template.matchAll(OLD_EXPRESSION)].map((m) => m[1]),
        );
      }),
      { seed: 9_004, numRuns: 3_000 },
    );
  });

  it('reads judge replies of a megabyte (an unclosed fence, a run of dots) within a bounded number of plain scans', () => {
    for (const reply of [`\`\`\`${'a'.repeat(MB)}`, `${'.'.repeat(MB)}x`]) {
      const cost = costInPlainScans(reply, () => parseMatchVerdict(reply), 2);
      assert.ok(cost < LINEAR_BOUND, `${JSON.stringify(reply.slice(0, 4))}…: ${cost.toFixed(0)} plain scans`);
      assert.equal(parseMatchVerdict(reply), null);
    }
    assert.deepEqual(parseMatchVerdict('Yes!!.'), { equivalent: true, justification: '' });
    assert.equal(parseMatchVerdict('Verdict:\n```json\n{"equivalent": true, "reason": "same"}\n```')?.equivalent, true);
  });
});
