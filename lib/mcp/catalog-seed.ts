import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/database';
import { upsertGlobalCatalogEntries, type CatalogEntryInput } from '../../db/mcp-catalog.repository';
import { operatorCatalogFileSchema } from '../../domain/mcp/mcp-catalog-entry';
import type { Config } from '../config';

/** The curated catalog shipped with Assay. */
export const BUILTIN_CATALOG_FILE = path.resolve(__dirname, '../../catalog/mcp-catalog.json');

/** Reads and validates an operator catalog file; the error names the file and the offending field. */
export function readCatalogFile(file: string): CatalogEntryInput[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`MCP catalog ${file}: ${(error as Error).message}`);
  }
  const parsed = operatorCatalogFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`MCP catalog ${file}: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data.entries;
}

/** Upserts the built-in catalog, then the operator's `MCP_CATALOG_FILE` if set; run after migrations on start. */
export async function seedMcpCatalog(db: Db, config: Pick<Config, 'MCP_CATALOG_FILE'>): Promise<void> {
  await upsertGlobalCatalogEntries(db, readCatalogFile(BUILTIN_CATALOG_FILE), 'builtin');
  if (config.MCP_CATALOG_FILE)
    await upsertGlobalCatalogEntries(db, readCatalogFile(config.MCP_CATALOG_FILE), 'operator');
}
