import { z } from 'zod';
import { ARGS_MATCH_MODES, matcherKeyOf, type ArgsMatch } from './arg-matchers';
import { userPatternProblem } from '../guardrails/user-patterns';
import { limitMessage } from '../limit-checks';
import { LIMITS } from '../limits';
import { toolCallSchema, type ToolCall } from './tool-call';

/** One call of an expected trajectory: a tool call whose args may hold matchers, and how its args are compared. */
export interface ExpectedCall extends ToolCall {
  args_match?: ArgsMatch;
}

type Problem = { path: PropertyKey[]; message: string };

function specProblems(key: string, spec: unknown): Problem[] {
  const at = (message: string, ...path: PropertyKey[]): Problem[] => [{ path: [key, ...path], message }];
  if (key === '$any') return spec === true ? [] : at('must be true');
  if (key === '$regex') {
    if (typeof spec !== 'string' || spec === '') return at('must be a non-empty string (an RE2 pattern)');
    if (spec.length > LIMITS.argPatternChars) return at(limitMessage('argPatternChars', 'characters'));
    const problem = userPatternProblem(spec);
    return problem ? at(`is not a pattern RE2 accepts (${problem}): ${spec}`) : [];
  }
  const bounds = z.object({ min: z.number().optional(), max: z.number().optional() }).strict().safeParse(spec);
  if (!bounds.success)
    return bounds.error.issues.map((issue) => ({ path: [key, ...issue.path], message: issue.message }));
  const { min, max } = bounds.data;
  return min !== undefined && max !== undefined && min > max ? at('must not be above max', 'min') : [];
}

/** Every invalid matcher in expected args, by its path below `tool_args` (`["id", "$regex"]`). */
export function matcherProblems(value: unknown, path: PropertyKey[] = []): Problem[] {
  const key = matcherKeyOf(value);
  if (key)
    return specProblems(key, (value as Record<string, unknown>)[key]).map((p) => ({
      ...p,
      path: [...path, ...p.path],
    }));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, item]) =>
    matcherProblems(item, [...path, Array.isArray(value) ? Number(k) : k]),
  );
}

/** Validates one call of `expected_trajectory`: a tool call, its optional `args_match`, matchers in its args. */
export const expectedCallSchema = toolCallSchema.extend({
  tool_args: toolCallSchema.shape.tool_args.superRefine((args, ctx) => {
    for (const { path, message } of matcherProblems(args)) ctx.addIssue({ code: 'custom', path, message });
  }),
  args_match: z.enum(ARGS_MATCH_MODES).optional(),
});
