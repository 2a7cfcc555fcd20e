import { sql } from 'kysely';
import { defaultConfigSchema, type ConfigSchema, type McpTransport } from '../domain/mcp/mcp-catalog-entry';
import type { Db } from './database';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';
import type { McpCatalogEntry } from './tables/mcp.table';

/** A catalog entry to store; `command` and `env` only for stdio_curated entries from an operator file. */
export interface CatalogEntryInput {
  name: string;
  label: string;
  category: string;
  image: string;
  description: string;
  transport: McpTransport;
  config_schema?: ConfigSchema;
  required_secrets: string[];
  command?: string[];
  env?: Record<string, string>;
}

const toRow = (entry: CatalogEntryInput) => ({
  name: entry.name,
  label: entry.label,
  category: entry.category,
  image: entry.image,
  description: entry.description,
  transport: entry.transport,
  config_schema: JSON.stringify(entry.config_schema ?? defaultConfigSchema(entry.transport)),
  required_secrets: JSON.stringify(entry.required_secrets),
  command: entry.command ? JSON.stringify(entry.command) : null,
  env: entry.command
    ? JSON.stringify(entry.env ?? Object.fromEntries(entry.required_secrets.map((s) => [s, s])))
    : null,
});

/** Inserts or refreshes global entries by name (operator files are loaded on every start). */
export async function upsertGlobalCatalogEntries(db: Db, entries: CatalogEntryInput[], source: string): Promise<void> {
  for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    const row = toRow(entry);
    await db
      .insertInto('mcp_catalog_entries')
      .values({ ...row, workspace_id: null, source })
      .onConflict((oc) =>
        oc
          .column('name')
          .where('workspace_id', 'is', null)
          .doUpdateSet({ ...row, source, updated_at: sql<Date>`now()` }),
      )
      .execute();
  }
}

/** Inserts a workspace-restricted entry. */
export async function insertWorkspaceCatalogEntry(
  db: Db,
  workspaceId: string,
  entry: CatalogEntryInput,
): Promise<McpCatalogEntry> {
  return db
    .insertInto('mcp_catalog_entries')
    .values({ ...toRow(entry), workspace_id: workspaceId, source: 'workspace' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// A workspace entry may share a global entry's name, so the id breaks the tie.
const CATALOG_ORDER: KeysetOrder = {
  keys: [
    { ref: 'label', kind: 'text' },
    { ref: 'name', kind: 'text' },
    { ref: 'id', kind: 'uuid' },
  ],
  direction: 'asc',
};

/** Global entries plus the workspace's own, by label. */
export async function listVisibleCatalogEntries(
  db: Db,
  workspaceId: string,
  page: PageParams,
): Promise<Page<McpCatalogEntry>> {
  const query = db
    .selectFrom('mcp_catalog_entries')
    .selectAll()
    .where((eb) => eb.or([eb('workspace_id', 'is', null), eb('workspace_id', '=', workspaceId)]));
  return keysetPage(query, CATALOG_ORDER, page);
}

/** One entry the workspace may see (global or its own), else undefined. */
export async function findVisibleCatalogEntry(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<McpCatalogEntry | undefined> {
  return db
    .selectFrom('mcp_catalog_entries')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('workspace_id', 'is', null), eb('workspace_id', '=', workspaceId)]))
    .executeTakeFirst();
}
