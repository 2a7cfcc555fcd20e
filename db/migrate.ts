import { Migrator, type Migration } from 'kysely';
import type { Db } from './database';
import * as platform from './migrations/0001-platform';

// A static list rather than a folder scan: works the same under tsx, a bundle or a compiled build.
const migrations: Record<string, Migration> = {
  '0001-platform': platform,
};

/** Brings the schema up to date; safe to call on every start. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
