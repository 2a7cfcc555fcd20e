import { z } from 'zod';
import { boundedArray, withinBytes } from '../bounded-schemas';
import { ARGS_MATCH_MODES, argsMatch } from '../trajectory/arg-matchers';
import { expectedCallSchema } from '../trajectory/expected-call';

/** What a sandbox does with a tool call no mock matches: fail it, replay the recording (else simulate), or simulate. */
export const MOCK_POLICIES = ['error', 'replay', 'simulate'] as const;
export type MockPolicy = (typeof MOCK_POLICIES)[number];
export const DEFAULT_MOCK_POLICY: MockPolicy = 'replay';

/** The MCP result a mock answers with. */
const mockResponseSchema = withinBytes(
  z
    .object({
      content: z.array(z.record(z.string(), z.unknown())).optional(),
      structuredContent: z.record(z.string(), z.unknown()).optional(),
      isError: z.boolean().optional(),
    })
    .strict(),
  'toolResultBytes',
);

/**
 * One tool mock: the calls of `tool_name` (an MCP tool's listed name, or the name the model was offered; of `server`
 * when given) whose arguments match `args` (the trajectory matchers, under `args_match`, default subset) are answered
 * with `response`, at most `times` times (absent: always).
 */
export const toolMockSchema = z
  .object({
    tool_name: expectedCallSchema.shape.tool_name,
    server: expectedCallSchema.shape.server,
    args: expectedCallSchema.shape.tool_args.optional(),
    args_match: z.enum(ARGS_MATCH_MODES).optional(),
    response: mockResponseSchema,
    times: z.number().int().min(1).max(1000).optional(),
  })
  .strict();

export type ToolMock = z.infer<typeof toolMockSchema>;

/** A case's or a set's `tool_mocks`: at most `toolMocksPerCase`. */
export const toolMocksSchema = boundedArray(toolMockSchema, 'toolMocksPerCase');

/** A call no mock matched, as the case result reports it. */
export interface UnmatchedCall {
  tool_name: string;
  server?: string;
  tool_args: Record<string, unknown>;
}

/** The mocks a sandbox run answers from (the case's, then its set's), how often each was used, and what none matched. */
export interface RunMocks {
  mocks: ToolMock[];
  policy: MockPolicy;
  /** A call neither a mock nor the cassette answers gets a model-written response (the set's opt-in). */
  simulate_responses?: boolean;
  used: number[];
  unmatched: UnmatchedCall[];
}

/** What a case result reports of its mocks: the calls none matched, and the mocks not used up (with their index). */
export interface MockReport {
  unmatched_calls: UnmatchedCall[];
  unconsumed: Array<{ index: number; tool_name: string; server?: string; used: number; times?: number }>;
}

/** The mocks of a sandbox run; null when there are none and the policy is the default (the sandbox as before). */
export function runMocks(
  caseMocks: readonly ToolMock[] | null,
  setMocks: readonly ToolMock[] | null,
  policy: MockPolicy,
  simulateResponses = false,
): RunMocks | null {
  const mocks = [...(caseMocks ?? []), ...(setMocks ?? [])];
  if (mocks.length === 0 && policy === DEFAULT_MOCK_POLICY && !simulateResponses) return null;
  const simulate = simulateResponses ? { simulate_responses: true } : {};
  return { mocks, policy, ...simulate, used: mocks.map(() => 0), unmatched: [] };
}

/** The tool a call is for: its recorded name and server, and the name the model called it by. */
export interface MockedTool {
  name: string;
  server?: string;
  modelName: string;
}

const mockFits = (mock: ToolMock, tool: MockedTool, args: Record<string, unknown>): boolean =>
  (mock.tool_name === tool.name || mock.tool_name === tool.modelName) &&
  (mock.server === undefined || mock.server === tool.server) &&
  argsMatch(mock.args ?? {}, args, mock.args_match ?? 'subset');

/** The first mock, in order, that matches the call and is not used up; null when none does. */
export function findMock(run: RunMocks, tool: MockedTool, args: Record<string, unknown>): number | null {
  const index = run.mocks.findIndex(
    (mock, i) => (mock.times === undefined || run.used[i] < mock.times) && mockFits(mock, tool, args),
  );
  return index === -1 ? null : index;
}

/** The report of a finished run: its unmatched calls, and each mock never used or with uses left. */
export function mockReport(run: RunMocks): MockReport {
  const unconsumed = run.mocks.flatMap((mock, index) => {
    const used = run.used[index] ?? 0;
    const left = mock.times === undefined ? used === 0 : used < mock.times;
    if (!left) return [];
    const times = mock.times === undefined ? {} : { times: mock.times };
    return [{ index, tool_name: mock.tool_name, ...(mock.server ? { server: mock.server } : {}), used, ...times }];
  });
  return { unmatched_calls: run.unmatched, unconsumed };
}
