import { apiClientFor, type ApiCommandOptions } from './api-client';
import { fetchAllPages } from './api-pages';
import { printResult, renderList, renderRecord } from './command-output';

/** Options of the `assay workspace` commands. */
export interface WorkspaceOptions extends ApiCommandOptions {
  json?: boolean;
  /** `delete`: confirms that everything in the workspace goes. */
  yes?: boolean;
}

interface WorkspaceJson {
  id: string;
  name: string;
  role?: string;
  created_at?: string;
}

const FIELDS = ['id', 'name', 'role', 'created_at'];
const path = (id: string): string => `/api/workspaces/${encodeURIComponent(id)}`;

/** `assay workspace create <name>`: a new workspace, the caller its owner. */
export async function workspaceCreateCommand(name: string, options: WorkspaceOptions): Promise<void> {
  const { data } = await apiClientFor(options).post<{ data: WorkspaceJson }>('/api/workspaces', { name });
  printResult(data, options.json, renderRecord);
}

/** `assay workspace list`: every workspace the caller is a member of, with their role there. */
export async function workspaceListCommand(options: WorkspaceOptions): Promise<void> {
  const items = await fetchAllPages<WorkspaceJson>(apiClientFor(options), '/api/workspaces');
  printResult(items, options.json, (all) => renderList(all, FIELDS));
}

/** `assay workspace rename <id> <name>`. */
export async function workspaceRenameCommand(id: string, name: string, options: WorkspaceOptions): Promise<void> {
  const { data } = await apiClientFor(options).patch<{ data: WorkspaceJson }>(path(id), { name });
  printResult(data, options.json, renderRecord);
}

/** `assay workspace delete <id> --yes`: starts the deletion (the workspace is unusable at once). */
export async function workspaceDeleteCommand(id: string, options: WorkspaceOptions): Promise<void> {
  if (!options.yes)
    throw new Error('deleting a workspace deletes its agents, eval sets, runs and secrets for good: add --yes');
  const { data } = await apiClientFor(options).delete<{ data: { id: string; deletion: string } }>(path(id));
  printResult(data, options.json, (d) => `deletion of workspace ${d.id} ${d.deletion}`);
}
