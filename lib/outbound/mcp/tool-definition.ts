import crypto from 'node:crypto';
import type { ToolDefinition } from '../../../domain/mcp/tool-approval';
import { stableJson } from '../../../domain/mcp/tool-changes';

/** A tool as tools/list answers it (the fields a definition covers). */
export interface ListedToolFields {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** The definition a listed tool is pinned by: name, title, description, input and output schema, annotations. */
export function toolDefinition(tool: ListedToolFields): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

/** The hash of a definition over its stable JSON: equal definitions hash equal whatever their key order. */
export function definitionHash(definition: ToolDefinition): string {
  return crypto.createHash('sha256').update(stableJson(definition)).digest('hex');
}

/**
 * Whether a tool as the upstream lists it now is still the one approved: the gateway hides a tool whose live
 * definition moved between syncs (a rug pull) until a sync quarantines it and a person approves it.
 */
export function isLiveDefinitionApproved(approvedHash: string | null, live: ListedToolFields): boolean {
  return approvedHash !== null && definitionHash(toolDefinition(live)) === approvedHash;
}
