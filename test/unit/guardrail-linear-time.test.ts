import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyGuardrails } from '../../domain/guardrails/apply-guardrails';
import { guardrailsSchema } from '../../domain/guardrails/guardrail-config';
import * as pii from '../../domain/guardrails/pii-detectors';
import { findBlockedTerms, findInjectionPhrases, findPatterns } from '../../domain/guardrails/text-detectors';
import type { TextSpan } from '../../domain/guardrails/text-spans';
import { LIMITS } from '../../domain/limits';
import { costInPlainScans } from '../helpers/relative-cost';

const MB = 1 << 20;
const repeatTo = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
// A linear detector costs tens of plain scans of its text; a quadratic one would cost about as many as the text has
// characters (a million here). The bound leaves room for a busy machine, far below that.
const LINEAR_BOUND = 1_000;

// The worst texts for each detector: long runs its pattern keeps almost matching, and runs of many real matches.
const ADVERSARIAL: ReadonlyArray<[string, (text: string) => TextSpan[], string[]]> = [
  ['e-mail', pii.findEmails, ['a', 'a@', 'a.@', 'a@b.', 'a@b.co ', 'a.b-c_d%e+f']],
  ['phone', pii.findPhones, ['1', '+1 (1) 1 ', '12-12345-123 ', '(11) 1234-', '+55 11 98765-4321 ']],
  ['payment card', pii.findPaymentCards, ['1', '1 ', '4111-', '4111 1111 1111 1111 ']],
  ['CPF', pii.findCpfs, ['1', '123.456.789', '529.982.247-25 ']],
  ['CNPJ', pii.findCnpjs, ['1', '12.345.678/9012', '11.222.333/0001-81 ']],
  ['prompt injection', (text) => findInjectionPhrases(text), [' ', 'ignore ', 'ignore all previous ', 'a']],
  ['blocked terms', (text) => findBlockedTerms(text, ['competitor deal', 'refund']), ['competitor ', 'a']],
  ['all personal data', (text) => pii.findPii(text), ['a@b.co 4111111111111111 529.982.247-25 ', '1', 'a@']],
];

describe('guardrail detectors in linear time', () => {
  for (const [name, detect, units] of ADVERSARIAL) {
    it(`runs the ${name} detector over 1 MB of adversarial text within ${LINEAR_BOUND} plain scans`, () => {
      for (const unit of units) {
        const text = unit === ' ' ? `ignore${repeatTo(unit, MB)}` : repeatTo(unit, MB);
        const cost = costInPlainScans(text, () => detect(text), 2);
        assert.ok(cost < LINEAR_BOUND, `${name} on ${JSON.stringify(unit)}…: ${cost.toFixed(0)} plain scans`);
      }
    });
  }

  it('finds the same e-mail addresses as the pattern the scan replaces', () => {
    const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
    const text = fc.array(fc.constantFrom('a', 'Z', '7', '.', '@', '-', '_', '%', '+', ' ', 'é', 'co'), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (parts) => {
        const input = parts.join('');
        const expected = [...input.matchAll(EMAIL)].map((m) => [m.index, m.index + m[0].length]);
        assert.deepEqual(
          pii.findEmails(input).map((span) => [span.start, span.end]),
          expected,
        );
      }),
      { seed: 9_003, numRuns: 3_000 },
    );
  });

  it('judges (a+)+b against 10,000 a’s as no match, promptly', () => {
    const text = 'a'.repeat(10_000);
    const guardrails = guardrailsSchema.parse([{ type: 'blocked_patterns', patterns: ['(a+)+b'] }]);
    // Backtracking would take 2^10000 steps; RE2 reads the text once (the bound covers compiling the pattern).
    const cost = costInPlainScans(text, () => applyGuardrails(text, 'input', guardrails));
    assert.ok(cost < 5 * LINEAR_BOUND, `(a+)+b on 10,000 a's: ${cost.toFixed(0)} plain scans`);
    assert.equal(applyGuardrails(text, 'input', guardrails).blocked, false);
    assert.equal(applyGuardrails(`${text}b`, 'input', guardrails).blocked, true);
  });

  it('refuses at save time a pattern whose compiled size would make every character costly, naming the limit', () => {
    const parsed = guardrailsSchema.safeParse([{ type: 'blocked_patterns', patterns: ['TCK-\\d+', '[^x]{1000}y'] }]);
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues[0].path, [0, 'patterns', 1]);
    assert.match(
      parsed.error?.issues[0].message ?? '',
      new RegExp(`more than ${LIMITS.patternProgramSize}\\): \\[\\^x\\]\\{1000\\}y$`),
    );
    assert.equal(
      guardrailsSchema.safeParse([{ type: 'blocked_patterns', patterns: ['sk-[A-Za-z0-9]{32,64}'] }]).success,
      true,
    );
  });

  it('redacts a pattern that must read to the end for every match in a bounded number of searches', () => {
    const text = 'a'.repeat(20_000);
    const spans = findPatterns(text, ['a*b|a'], false);
    assert.equal(spans.length, LIMITS.patternSearchesPerText + 1);
    assert.deepEqual(spans.at(-1), { start: LIMITS.patternSearchesPerText, end: text.length, label: 'a*b|a' });
    const guardrails = guardrailsSchema.parse([{ type: 'blocked_patterns', action: 'redact', patterns: ['a*b|a'] }]);
    assert.equal(
      applyGuardrails(text, 'output', guardrails).text,
      '[REDACTED]'.repeat(LIMITS.patternSearchesPerText + 1),
    );
  });
});
