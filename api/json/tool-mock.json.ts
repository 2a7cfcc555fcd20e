import { z } from 'zod';

const unmatchedCallJson = z.object({
  tool_name: z.string(),
  server: z.string().optional(),
  tool_args: z.record(z.string(), z.unknown()),
});

/** What a case result reports of its tool mocks. */
export const mockReportJson = z.object({
  unmatched_calls: z.array(unmatchedCallJson).describe('calls no mock matched, in order'),
  unconsumed: z
    .array(
      z.object({
        index: z.number().describe("the mock's place among the case's mocks followed by the set's"),
        tool_name: z.string(),
        server: z.string().optional(),
        used: z.number(),
        times: z.number().optional(),
      }),
    )
    .describe('mocks never used, or used fewer than their `times`'),
});
