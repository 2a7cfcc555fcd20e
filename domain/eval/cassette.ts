import { z } from 'zod';
import { boundedArray, withinBytes } from '../bounded-schemas';
import { argsMatch } from '../trajectory/arg-matchers';
import { expectedCallSchema } from '../trajectory/expected-call';

/** The `format` tag of a cassette file. */
export const CASSETTE_FORMAT = 'assay.cassette/v1';

/**
 * One recorded tool response: the call (an MCP tool by its listed name and server; its arguments, which may hold the
 * trajectory matchers when written by hand) and the MCP result it got.
 */
export const cassetteEntrySchema = z
  .object({
    tool_name: expectedCallSchema.shape.tool_name,
    server: z.string().min(1).max(200),
    tool_args: expectedCallSchema.shape.tool_args,
    response: withinBytes(z.unknown(), 'cassetteResponseBytes'),
  })
  .strict();

export type CassetteEntry = z.infer<typeof cassetteEntrySchema>;

/** A cassette file: an eval set's recorded tool responses, as `GET …/cassette` writes and `POST …/cassette` reads. */
export const cassetteFileSchema = z
  .object({
    $schema: z.string().max(2_000).optional(),
    format: z.literal(CASSETTE_FORMAT),
    entries: boundedArray(cassetteEntrySchema, 'cassetteEntriesPerSet'),
  })
  .strict()
  .meta({ title: 'Assay cassette', description: "An eval set's recorded tool responses; see docs/evaluation.md" });

export type CassetteFile = z.infer<typeof cassetteFileSchema>;

/** The JSON Schema (draft 2020-12) of a cassette file, served at `/schemas/cassette.json`. */
export function cassetteFileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(cassetteFileSchema, { target: 'draft-2020-12', io: 'input' });
}

/** The first entry, in recording order, of the call's tool and server whose arguments match the call's exactly. */
export function findCassetteEntry<E extends CassetteEntry>(
  entries: readonly E[],
  tool: { name: string; server: string },
  args: Record<string, unknown>,
): E | undefined {
  return entries.find(
    (entry) => entry.tool_name === tool.name && entry.server === tool.server && argsMatch(entry.tool_args, args),
  );
}
