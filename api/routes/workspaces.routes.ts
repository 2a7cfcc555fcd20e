import { z } from 'zod';
import type { Page, PageParams } from '../../db/keyset-page';
import { isOperator } from '../../db/account.repository';
import {
  createOwnedWorkspace,
  findWorkspace,
  listMyWorkspaces,
  renameWorkspace,
  type MyWorkspace,
} from '../../db/workspace.repository';
import { LIMITS } from '../../domain/limits';
import type { AuthContext } from '../auth';
import type { AppDeps } from '../app-deps';
import { limitExceeded } from '../field-errors';
import { HttpError } from '../http-error';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { startWorkspaceDeletion } from '../workflow-starts';
import { workspaceJson, toWorkspaceJson } from '../json/workspace.json';

const workspaceName = z.string().trim().min(1).max(120);

const workspaceBody = z.object({ name: workspaceName }).strict();

// A person creates a workspace when the instance lets anyone (up to workspacesPerUser owned), or when they are an
// operator (unbounded); a service token never.
async function requireMayCreate(
  deps: AppDeps,
  auth: AuthContext,
): Promise<{ userId: string; maxOwned: number | null }> {
  const refuse = (why: string): HttpError =>
    new HttpError(403, 'forbidden', why, { permission: 'workspaces:create', setting: 'WORKSPACE_CREATION' });
  if (auth.actor.type !== 'user') throw refuse('a service token cannot create workspaces');
  if (await isOperator(deps.db, auth.actor.id)) return { userId: auth.actor.id, maxOwned: null };
  if (deps.config.WORKSPACE_CREATION === 'anyone') return { userId: auth.actor.id, maxOwned: LIMITS.workspacesPerUser };
  throw refuse('only instance operators may create workspaces (WORKSPACE_CREATION=operators)');
}

// A service token, or a personal token scoped to one workspace (an invitation's), acts in that workspace only: its list
// is that one workspace, on one page.
async function myWorkspaces(deps: AppDeps, auth: AuthContext, page: PageParams): Promise<Page<MyWorkspace>> {
  if (auth.actor.type === 'user' && auth.scopeWorkspaceId === undefined)
    return listMyWorkspaces(deps.db, auth.actor.id, page);
  const own = page.cursor === undefined ? await findWorkspace(deps.db, auth.workspaceId) : undefined;
  return { items: own ? [{ ...own, role: auth.role }] : [], nextCursor: null };
}

/** Workspaces: create (operators, or anyone per WORKSPACE_CREATION), list mine, rename, delete (durably). */
export const workspaceRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/workspaces',
    summary:
      'Create a workspace (the caller becomes its owner); a non-operator owns at most workspacesPerUser (422 naming it)',
    tag: 'workspaces',
    permission: 'workspaces:create',
    body: workspaceBody,
    status: 201,
    response: z.object({ data: workspaceJson }),
    handler: async ({ body, auth, deps }) => {
      const { userId, maxOwned } = await requireMayCreate(deps, auth);
      const created = await createOwnedWorkspace(deps.db, body.name, userId, maxOwned);
      if ('full' in created)
        throw limitExceeded('name', 'workspacesPerUser', 'items', `the caller already owns ${created.full} workspaces`);
      return { data: toWorkspaceJson(created) };
    },
  }),
  route({
    method: 'get',
    path: '/api/workspaces',
    summary: "The caller's workspaces with their role, oldest first",
    tag: 'workspaces',
    permission: 'account:view',
    query: pageQuery,
    response: dataPageJson(workspaceJson),
    handler: ({ query, auth, deps }) => dataPage(query, (page) => myWorkspaces(deps, auth, page), toWorkspaceJson),
  }),
  route({
    method: 'patch',
    path: '/api/workspaces/:id',
    summary: 'Rename a workspace (the path names it; a non-member gets 404)',
    tag: 'workspaces',
    permission: 'workspace:admin',
    workspaceParam: 'id',
    body: workspaceBody,
    response: z.object({ data: workspaceJson }),
    handler: async ({ body, auth, deps }) => {
      const row = await renameWorkspace(deps.db, auth.workspaceId, body.name);
      if (!row) throw new HttpError(404, 'not_found', 'workspace not found');
      return { data: toWorkspaceJson({ ...row, role: auth.role }) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/workspaces/:id',
    summary:
      'Delete a workspace: unusable at once; a workflow cancels its runs, then purges its secrets and rows (202)',
    tag: 'workspaces',
    permission: 'workspace:delete',
    workspaceParam: 'id',
    status: 202,
    errors: [503],
    response: z.object({ data: z.object({ id: z.string(), deletion: z.literal('started') }) }),
    handler: async ({ auth, deps }) => {
      await startWorkspaceDeletion(deps, auth.workspaceId);
      return { data: { id: auth.workspaceId, deletion: 'started' as const } };
    },
  }),
];
