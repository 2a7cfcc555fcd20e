import { z } from 'zod';
import { insertWorkspaceCatalogEntry, listVisibleCatalogEntries } from '../../db/mcp-catalog.repository';
import { isUniqueViolation } from '../../db/pg-errors';
import { workspaceCatalogEntrySchema } from '../../domain/mcp/mcp-catalog-entry';
import { invalidField } from '../field-errors';
import { HttpError } from '../http-error';
import { route, type RouteSpec } from '../route';
import { linkedPage, pageQuery } from '../paging';
import { catalogEntryJson, toCatalogEntryJson } from '../json/mcp-catalog-entry.json';

// The transport is checked here rather than by the literal in the schema, so the 422 can say why.
const createEntryBody = workspaceCatalogEntrySchema.extend({ transport: z.string().max(40) });

/** MCP catalog: global entries plus the workspace's own; admins add `http` entries for their workspace. */
export const mcpCatalogRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v1/mcp-catalog',
    summary: 'List catalog entries (global and this workspace)',
    tag: 'mcp',
    permission: 'mcp:view',
    query: pageQuery,
    response: z.array(catalogEntryJson),
    handler: async (ctx) =>
      linkedPage(ctx, (page) => listVisibleCatalogEntries(ctx.deps.db, ctx.auth.workspaceId, page), toCatalogEntryJson),
  }),
  route({
    method: 'post',
    path: '/api/v1/mcp-catalog',
    summary: 'Add an http catalog entry restricted to this workspace',
    errors: [409],
    tag: 'mcp',
    permission: 'workspace:admin',
    body: createEntryBody,
    status: 201,
    response: catalogEntryJson,
    handler: async ({ body, auth, deps }) => {
      if (body.transport !== 'http') {
        throw invalidField(
          'transport',
          'must be http: stdio_curated entries run commands and come only from the operator catalog file',
        );
      }
      const row = await insertWorkspaceCatalogEntry(deps.db, auth.workspaceId, { ...body, transport: 'http' }).catch(
        (error: unknown) => {
          throw isUniqueViolation(error)
            ? new HttpError(409, 'conflict', `a catalog entry named ${body.name} already exists`, { field: 'name' })
            : error;
        },
      );
      return toCatalogEntryJson(row);
    },
  }),
];
