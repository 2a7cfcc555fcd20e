import { z } from 'zod';
import type { MyWorkspace } from '../../db/workspace.repository';

export const workspaceJson = z.object({ id: z.string(), name: z.string(), role: z.string(), created_at: z.string() });

/** The API shape of a workspace, with the caller's role in it. */
export function toWorkspaceJson(row: MyWorkspace): z.infer<typeof workspaceJson> {
  return { id: row.id, name: row.name, role: row.role, created_at: row.created_at.toISOString() };
}
