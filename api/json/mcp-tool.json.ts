import { z } from 'zod';
import type { EvalRun } from '../../db/tables/eval-run.table';
import type { McpTool } from '../../db/tables/mcp.table';
import { definitionOf, diffDefinitions, DEFINITION_FIELDS } from '../../domain/mcp/tool-approval';
import { evalRunJson, toEvalRunJson } from './eval-run.json';

export const parameterJson = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string(),
  required: z.boolean(),
});

export const toolJson = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string(),
  parameters: z.array(parameterJson),
  input_schema: z.unknown(),
  output_schema: z.unknown().describe('the declared output schema; null when none'),
  annotations: z.record(z.string(), z.unknown()).nullable(),
  icons: z.array(z.unknown()).nullable(),
  status: z
    .enum(['approved', 'quarantined'])
    .describe('quarantined: new or changed since approved; hidden from flows, agent runs and the gateway'),
});

/** The API shape of a tool descriptor: the spec's fields, the raw schemas, and its approval status. */
export function toToolJson(row: McpTool): z.infer<typeof toolJson> {
  return {
    name: row.name,
    title: row.title,
    description: row.description,
    parameters: row.parameters,
    input_schema: row.input_schema,
    output_schema: row.output_schema ?? null,
    annotations: row.annotations,
    icons: row.icons,
    status: row.status,
  };
}

const changeJson = z.object({
  field: z.enum(DEFINITION_FIELDS),
  old: z.unknown().optional().describe('the approved value; absent when it was not set or nothing was approved'),
  new: z.unknown().optional().describe('the current value; absent when it is no longer set'),
});

export const toolViewJson = toolJson.extend({
  hash: z.string().describe('the definition hash of the current definition (send it back to approve)'),
  approved_hash: z.string().nullable().describe('the hash when last approved; null: never approved'),
  diff: z.array(changeJson).describe('approved vs current definition, field by field; empty when approved'),
  evaluation_runs: z
    .array(evalRunJson)
    .describe('approval evaluation runs of the current definition, newest first, with their summaries'),
});

/** A tool with its pending diff and the evaluation runs of its current (candidate) definition. */
export function toToolViewJson(row: McpTool, runs: EvalRun[]): z.infer<typeof toolViewJson> {
  const diff = row.status === 'approved' ? [] : diffDefinitions(row.approved_definition, definitionOf(row));
  return {
    ...toToolJson(row),
    hash: row.hash,
    approved_hash: row.approved_hash,
    diff,
    evaluation_runs: runs.map(toEvalRunJson),
  };
}
