import { EFFICIENCY_FIGURES, type EfficiencyDelta } from '../domain/eval/efficiency-delta';
import type { ComparisonJson } from './eval-run.types';

const LABELS = {
  tool_calls: 'tool calls',
  model_calls: 'model calls',
  total_tokens: 'tokens',
  latency_ms: 'latency ms',
};

const mean = (n: number | null): string => (n === null ? '-' : String(Math.round(n * 100) / 100));
const signed = (n: number): string => `${n > 0 ? '+' : ''}${mean(n)}`;

// The figures that moved in a case, e.g. `tool calls +1, tokens -20` (empty when none did).
function movedFigures(delta: EfficiencyDelta): string {
  return EFFICIENCY_FIGURES.flatMap((figure) => {
    const value = delta[figure];
    return value === null || value === 0 ? [] : [`${LABELS[figure]} ${signed(value)}`];
  }).join(', ');
}

/**
 * The efficiency part of a detailed comparison report (informational, never part of the verdict): the run line with
 * each figure's mean in the baseline → the run over the cases both scored, then one line per case whose figures moved.
 * Nothing when the API answers no efficiency.
 */
export function efficiencyLines(c: ComparisonJson): string[] {
  const efficiency = c.efficiency;
  if (!efficiency) return [];
  const means = EFFICIENCY_FIGURES.map((figure) => {
    const d = efficiency[figure];
    return `${LABELS[figure]} ${mean(d.baseline)} → ${mean(d.run)}${d.delta === null ? '' : ` (${signed(d.delta)})`}`;
  });
  const lines = [`efficiency over ${efficiency.cases} cases (mean): ${means.join(', ')}`];
  for (const k of c.cases) {
    const moved = k.efficiency_delta ? movedFigures(k.efficiency_delta) : '';
    if (moved) lines.push(`  ${k.case_name}: ${moved}`);
  }
  return lines;
}
