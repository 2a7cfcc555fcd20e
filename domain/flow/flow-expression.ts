/** What a flow node's `{{ path }}` expressions may read: the run's variables and earlier nodes' outputs. */
export interface FlowScope {
  variables: Record<string, unknown>;
  nodes: Record<string, { output: unknown }>;
}

/** An expression that cannot be parsed or resolved; the message names the expression. */
export class FlowExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlowExpressionError';
  }
}

// The text up to the next brace, trimmed in code: `\{\{\s*([^{}]*?)\s*\}\}` let three runs share the whitespace,
// and a long run of spaces after `{{` took minutes to refuse. One run, no overlap: linear.
const EXPRESSION = /\{\{([^{}]*)\}\}/g;
const WHOLE_EXPRESSION = /^\{\{([^{}]*)\}\}$/;
const PATH = /^[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+|\[\d+\])*$/;
const ROOTS: ReadonlySet<string> = new Set(['variables', 'nodes']);
/** Names that would walk into prototypes rather than data: never a path segment, so never a node id either. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

/** Splits `nodes.n1.output.content[0].text` into segments; throws on anything but a plain data path. */
export function parsePath(expression: string): string[] {
  if (!PATH.test(expression)) throw new FlowExpressionError(`{{ ${expression} }} is not a path like variables.name`);
  const segments: string[] = [...(expression.match(/[^.[\]]+/g) ?? [])];
  if (!ROOTS.has(segments[0] ?? ''))
    throw new FlowExpressionError(`{{ ${expression} }} must start with variables or nodes`);
  const forbidden = segments.find((segment) => RESERVED_NAMES.has(segment));
  if (forbidden !== undefined) throw new FlowExpressionError(`{{ ${expression} }} uses the reserved name ${forbidden}`);
  return segments;
}

/** Every expression path written in a parameter value (strings, arrays and objects, at any depth). */
export function expressionsIn(template: unknown): string[] {
  if (typeof template === 'string') return [...template.matchAll(EXPRESSION)].map((match) => match[1].trim());
  if (Array.isArray(template)) return template.flatMap(expressionsIn);
  if (isRecord(template)) return Object.values(template).flatMap(expressionsIn);
  return [];
}

/** Why a parameter value's expressions are invalid for a node preceded by `earlierNodeIds`, or undefined. */
export function referenceProblem(template: unknown, earlierNodeIds: readonly string[]): string | undefined {
  for (const expression of expressionsIn(template)) {
    let segments: string[];
    try {
      segments = parsePath(expression);
    } catch (error) {
      return (error as Error).message;
    }
    if (segments[0] !== 'nodes') continue;
    if (!earlierNodeIds.includes(segments[1] ?? ''))
      return `{{ ${expression} }} refers to ${segments[1] ?? 'no node'}, which is not an earlier node`;
    if (segments[2] !== 'output') return `{{ ${expression} }} must read nodes.${segments[1]}.output`;
  }
  return undefined;
}

/** Reads a path from the scope through own data properties only; throws when a segment is missing. */
export function resolvePath(scope: FlowScope, expression: string): unknown {
  const segments = parsePath(expression);
  let current: unknown = scope;
  for (const segment of segments) {
    if (Array.isArray(current) && /^\d+$/.test(segment) && Number(segment) < current.length)
      current = current[Number(segment)];
    else if (isRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else throw new FlowExpressionError(`{{ ${expression} }} is not defined`);
  }
  return current;
}

/**
 * Renders a parameter value: a string that is exactly one expression takes the resolved value as is (so numbers
 * stay numbers); expressions inside longer text are interpolated; arrays and objects are rendered element-wise.
 */
export function renderValue(template: unknown, scope: FlowScope): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_EXPRESSION.exec(template);
    if (whole) return resolvePath(scope, whole[1].trim());
    return template.replace(EXPRESSION, (_match, expression: string) => asText(resolvePath(scope, expression.trim())));
  }
  if (Array.isArray(template)) return template.map((item) => renderValue(item, scope));
  if (isRecord(template))
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderValue(value, scope)]));
  return template;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
