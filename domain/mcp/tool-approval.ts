import { stableJson } from './tool-changes';

/** A tool's status: an approved tool is usable; a quarantined one waits for a person's approval. */
export type ToolStatus = 'approved' | 'quarantined';

/** What a tool's definition hash covers (the MCP `Tool` fields an agent or a client reads). */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** The fields of a definition, in the order a diff lists them. */
export const DEFINITION_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;

/** The approved hash of tools approved before definitions were hashed (migration 0028): see {@link nextApproval}. */
export const PRE_PIN_APPROVAL = 'pre-0028';

/** A tool's approval as stored: status, and the hash and definition it was last approved at (none: never approved). */
export interface ToolApproval {
  status: ToolStatus;
  approved_hash: string | null;
  approved_definition: ToolDefinition | null;
}

/** One field of a definition that differs from the approved one (`old` absent: the field was not set). */
export interface DefinitionChange {
  field: (typeof DEFINITION_FIELDS)[number];
  old?: unknown;
  new?: unknown;
}

const same = (a: unknown, b: unknown): boolean => stableJson(a) === stableJson(b);

/** The approved definition vs the current one, field by field (every set field when nothing was approved yet). */
export function diffDefinitions(approved: ToolDefinition | null, current: ToolDefinition): DefinitionChange[] {
  return DEFINITION_FIELDS.flatMap((field) => {
    const before = approved?.[field];
    const after = current[field];
    if (approved && same(before, after)) return [];
    if (!approved && after === undefined) return [];
    return [
      { field, ...(before === undefined ? {} : { old: before }), ...(after === undefined ? {} : { new: after }) },
    ];
  });
}

// Tools approved before 0028 were fingerprinted over description and schemas only: those decide whether they moved.
const samePrePin = (approved: ToolDefinition, next: ToolDefinition): boolean =>
  same(approved.description, next.description) &&
  same(approved.inputSchema, next.inputSchema) &&
  same(approved.outputSchema, next.outputSchema);

const approvedAt = (hash: string, definition: ToolDefinition): ToolApproval => ({
  status: 'approved',
  approved_hash: hash,
  approved_definition: definition,
});

/**
 * A tool's approval after a sync listed it with `definition` (hashing to `hash`). The first sync of a server approves
 * everything (nothing to pin against yet); later, a new tool or a definition that differs from the approved one is
 * quarantined (its approved definition is kept for the diff), and one that is back to its approved definition is
 * approved again.
 */
export function nextApproval(
  previous: ToolApproval | undefined,
  hash: string,
  definition: ToolDefinition,
  firstSync: boolean,
): ToolApproval {
  if (firstSync) return approvedAt(hash, definition);
  if (!previous) return { status: 'quarantined', approved_hash: null, approved_definition: null };
  if (previous.approved_hash === hash) return approvedAt(hash, definition);
  const { approved_hash, approved_definition } = previous;
  if (approved_hash === PRE_PIN_APPROVAL && approved_definition && samePrePin(approved_definition, definition))
    return approvedAt(hash, definition);
  return { status: 'quarantined', approved_hash, approved_definition };
}

/** A stored tool's current definition (what the last sync listed). */
export function definitionOf(row: {
  name: string;
  title: string | null;
  description: string;
  input_schema: unknown;
  output_schema: unknown;
  annotations: unknown;
}): ToolDefinition {
  return {
    name: row.name,
    ...(row.title === null ? {} : { title: row.title }),
    description: row.description,
    inputSchema: row.input_schema,
    ...(row.output_schema === null ? {} : { outputSchema: row.output_schema }),
    ...(row.annotations === null ? {} : { annotations: row.annotations }),
  };
}

/** Why a quarantined tool cannot be used, naming it and the way out. */
export function quarantineMessage(tool: string, server: string): string {
  return (
    `tool ${tool} of ${server} is quarantined: its definition is new or changed since it was approved ` +
    '(an admin approves it with POST /api/v1/mcp-servers/{id}/tools/{tool}/approve)'
  );
}
