import { z } from 'zod';
import type { Db } from '../db/database';
import type { McpCallToolNode } from '../db/tables/flow.table';
import { findServerTools } from '../db/mcp-tool.repository';
import { boundedObject } from '../domain/bounded-schemas';
import { quarantineMessage } from '../domain/mcp/tool-approval';
import { RESERVED_NAMES, referenceProblem } from '../domain/flow/flow-expression';
import { invalidField } from './field-errors';
import { requireMcpServer } from './lookups';

/** A node of kind `mcp.call_tool`: a server of the workspace, one of its stored tools, and `{{ }}` parameters. */
export const flowNodeBody = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must start with a letter (letters, digits, _ and -)')
    .refine((id) => !RESERVED_NAMES.has(id), 'is a reserved name (constructor and prototype cannot be node ids)'),
  kind: z.literal('mcp.call_tool'),
  mcp_server_id: z.string().min(1).max(200),
  tool_name: z.string().min(1).max(200),
  // zod drops a `__proto__` key without a word; the builder hears that it was refused instead.
  parameters: z
    .preprocess((value, ctx) => {
      if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__'))
        ctx.addIssue({ code: 'custom', message: 'is a reserved name', path: ['__proto__'] });
      return value;
    }, boundedObject('toolArgsBytes'))
    .default({}),
});

/** Checks nodes against the stored tool descriptors: known and approved tool, known parameters, required ones present, earlier-node references. */
export async function validateFlowNodes(
  db: Db,
  workspaceId: string,
  nodes: z.infer<typeof flowNodeBody>[],
): Promise<McpCallToolNode[]> {
  const seen: string[] = [];
  const validated: McpCallToolNode[] = [];
  for (const [index, node] of nodes.entries()) {
    const at = `nodes.${index}`;
    if (seen.includes(node.id)) throw invalidField(`${at}.id`, `duplicates node ${node.id}`);
    const server = await requireMcpServer(db, workspaceId, node.mcp_server_id);
    const [tool] = await findServerTools(db, server.id, [node.tool_name]);
    if (!tool)
      throw invalidField(
        `${at}.tool_name`,
        `${node.tool_name} is not a stored tool of ${server.name} (run refresh-tools first)`,
      );
    if (tool.status !== 'approved') throw invalidField(`${at}.tool_name`, quarantineMessage(tool.name, server.name));
    const names = tool.parameters.map((p) => p.name);
    const unknown = Object.keys(node.parameters).find((name) => !names.includes(name));
    if (unknown) throw invalidField(`${at}.parameters.${unknown}`, `is not a parameter of ${tool.name}`);
    const missing = tool.parameters.find((p) => p.required && !Object.hasOwn(node.parameters, p.name));
    if (missing) throw invalidField(`${at}.parameters.${missing.name}`, 'is required');
    for (const [name, template] of Object.entries(node.parameters)) {
      const problem = referenceProblem(template, seen);
      if (problem) throw invalidField(`${at}.parameters.${name}`, problem);
    }
    seen.push(node.id);
    validated.push({
      id: node.id,
      kind: 'mcp.call_tool',
      mcp_server_id: server.id,
      tool_name: tool.name,
      parameters: node.parameters,
    });
  }
  return validated;
}
