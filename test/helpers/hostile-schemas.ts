import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PagedTool } from './paged-mcp-server';

const noInput = { type: 'object' as const, properties: {} };
/** A string on which `^(a+)+$` backtracks 2^30 times in V8's RegExp (about 10 s on this machine, doubling per `a`). */
export const EVIL_TEXT = `${'a'.repeat(30)}!`;

// d30 = allOf [d29, d29] … d0 = string: 2^30 checks of one value when references are followed as written.
const doublingDefs = (levels: number): Record<string, unknown> =>
  Object.fromEntries(
    Array.from({ length: levels + 1 }, (_, i) => [
      `d${i}`,
      i === 0 ? { type: 'string' } : { allOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] },
    ]),
  );
const ENUM_VALUES = 7_000;
const ENUM_ITEMS = 60_000;

/**
 * Tools whose output schemas cost a backtracking or naive validator super-linear time on the structuredContent each
 * answers: a pattern and a patternProperties key that backtrack, references that double at each level, and an enum
 * of 7,000 values checked for each of 60,000 items (the last value matching, so each item is compared with all;
 * within `toolResultBytes`).
 */
export const HOSTILE_SCHEMA_TOOLS: Array<PagedTool & { answer: Record<string, unknown> }> = [
  {
    name: 'pattern',
    outputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
    answer: { s: EVIL_TEXT },
  },
  {
    name: 'pattern_properties',
    outputSchema: { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } },
    answer: { [EVIL_TEXT]: 1 },
  },
  {
    name: 'doubling_refs',
    outputSchema: { type: 'object', $defs: doublingDefs(30), properties: { s: { $ref: '#/$defs/d30' } } },
    answer: { s: 'x' },
  },
  {
    name: 'huge_enum',
    outputSchema: {
      type: 'object',
      properties: {
        v: {
          type: 'array',
          items: { enum: Array.from({ length: ENUM_VALUES }, (_, i) => (i === ENUM_VALUES - 1 ? 'z' : `e${i}`)) },
        },
      },
    },
    answer: { v: Array.from({ length: ENUM_ITEMS }, () => 'z') },
  },
].map((tool) => ({ ...tool, description: `hostile output schema: ${tool.name}`, inputSchema: noInput }));

/** The answer of a hostile tool: its structuredContent, and a short text. */
export function hostileAnswer(name: string): CallToolResult {
  const tool = HOSTILE_SCHEMA_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`no hostile tool ${name}`);
  return { content: [{ type: 'text', text: 'ok' }], structuredContent: tool.answer };
}

/** Runs `work` and answers how long it took and the longest the event loop stalled meanwhile, in ms. */
export async function timedWithStalls<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  try {
    const value = await work();
    return { value, ms: performance.now() - started, stallMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
