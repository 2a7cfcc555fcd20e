import type { GuardrailEvent } from '../scoring/safety';
import { guardrailName, guardrailStages, type Guardrail, type GuardrailStage } from './guardrail-config';
import { findPii } from './pii-detectors';
import { findBlockedTerms, findInjectionPhrases, findPatterns } from './text-detectors';
import { replaceSpans, type TextSpan } from './text-spans';

/** What applying an agent's guardrails to a text gave: the text to use, whether it is blocked, the events. */
export interface GuardrailOutcome {
  text: string;
  blocked: boolean;
  events: GuardrailEvent[];
}

/** The detail of a guardrail event: what fired, what it did, and what it matched (labels, never the matched text). */
export interface GuardrailEventDetail {
  type: Guardrail['type'];
  action: 'block' | 'redact';
  matches: string[];
  length?: number;
  max_chars?: number;
}

function detect(guardrail: Guardrail, text: string): TextSpan[] {
  switch (guardrail.type) {
    case 'blocked_terms':
      return findBlockedTerms(text, guardrail.terms);
    case 'blocked_patterns':
      return findPatterns(text, guardrail.patterns, guardrail.case_insensitive, guardrail.action === 'block');
    case 'pii':
      return findPii(text, guardrail.detectors);
    case 'prompt_injection':
      return findInjectionPhrases(text, guardrail.phrases);
    case 'max_output_length':
      return text.length > guardrail.max_chars
        ? [{ start: guardrail.max_chars, end: text.length, label: 'length' }]
        : [];
  }
}

const redaction = (guardrail: Guardrail, span: TextSpan): string =>
  guardrail.type === 'pii' ? `[REDACTED_${span.label.toUpperCase()}]` : '[REDACTED]';

function redact(guardrail: Guardrail, text: string, spans: readonly TextSpan[]): string {
  if (guardrail.type === 'max_output_length') return text.slice(0, guardrail.max_chars);
  return replaceSpans(text, spans, (span) => redaction(guardrail, span));
}

function detailOf(guardrail: Guardrail, text: string, spans: readonly TextSpan[]): GuardrailEventDetail {
  const detail: GuardrailEventDetail = {
    type: guardrail.type,
    action: guardrail.action,
    matches: [...new Set(spans.map((s) => s.label))],
  };
  if (guardrail.type === 'max_output_length') return { ...detail, length: text.length, max_chars: guardrail.max_chars };
  return detail;
}

/**
 * Applies guardrails in order at one stage. A `redact` guardrail rewrites the text the next one sees; the first
 * `block` that fires stops there (the caller answers with its safe reply). Every guardrail that fired is an event.
 */
export function applyGuardrails(
  text: string,
  stage: GuardrailStage,
  guardrails: readonly Guardrail[],
): GuardrailOutcome {
  const events: GuardrailEvent[] = [];
  let current = text;
  for (const guardrail of guardrails) {
    if (!guardrailStages(guardrail).includes(stage)) continue;
    const spans = detect(guardrail, current);
    if (spans.length === 0) continue;
    events.push({ guardrail: guardrailName(guardrail), stage, detail: detailOf(guardrail, current, spans) });
    if (guardrail.action === 'block') return { text: current, blocked: true, events };
    current = redact(guardrail, current, spans);
  }
  return { text: current, blocked: false, events };
}
