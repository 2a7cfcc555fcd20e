import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { createDb, type Db } from '../../db/database';
import { migrateToLatest, migrations } from '../../db/migrate';
import { listUsableTools, saveToolSync } from '../../db/mcp-tool.repository';
import { ensureDatabase } from '../../lib/embedded/postgres-cluster';
import { toToolDescriptor } from '../../lib/outbound/mcp/list-tools';
import { harness } from '../helpers/harness';

const schema = { type: 'object' as const, properties: { q: { type: 'string' } } };

describe('migration 0028: tools stored before pinning stay approved', () => {
  let db: Db;
  let serverId: string;

  before(async () => {
    const url = new URL((await harness()).databaseUrl);
    const name = `${url.pathname.slice(1)}_pin_${crypto.randomBytes(4).toString('hex')}`;
    await ensureDatabase(url.toString(), name);
    url.pathname = `/${name}`;
    db = createDb(url.toString(), 2);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('0027-tool-mocks');
    assert.equal(error, undefined);
    const { rows } = await sql<{ id: string }>`
      WITH w AS (INSERT INTO workspaces (name) VALUES ('before-pins') RETURNING id)
      INSERT INTO mcp_servers (workspace_id, name, transport, config, status, credential_id, synced_at)
      SELECT id, 'old', 'http', '{}', 'connected', 'mcp-server:old', now() FROM w RETURNING id`.execute(db);
    serverId = rows[0].id;
    for (const [tool, description] of [
      ['kept', 'Keeps'],
      ['moved', 'Old words'],
    ])
      await sql`INSERT INTO mcp_tools (server_id, name, description, parameters, input_schema, hash)
        VALUES (${serverId}, ${tool}, ${description}, '[]', ${JSON.stringify(schema)}, 'old-fingerprint')`.execute(db);
    await migrateToLatest(db);
  });
  after(async () => db?.destroy());

  it('keeps them approved at their stored definition, and the next sync quarantines only a changed one', async () => {
    const stored = await db.selectFrom('mcp_tools').selectAll().orderBy('name').execute();
    assert.deepEqual(
      stored.map((t) => [t.name, t.status, t.approved_hash]),
      [
        ['kept', 'approved', 'pre-0028'],
        ['moved', 'approved', 'pre-0028'],
      ],
    );
    const changes = await saveToolSync(
      db,
      serverId,
      [
        // Title and annotations were never stored before: new to the hash, they change nothing for an old tool.
        toToolDescriptor({
          name: 'kept',
          title: 'Kept',
          description: 'Keeps',
          inputSchema: schema,
          annotations: { readOnlyHint: true },
        }),
        toToolDescriptor({ name: 'moved', description: 'New words', inputSchema: schema }),
      ],
      new Date(),
    );
    assert.deepEqual(changes, { added: [], removed: [], changed: ['moved'] });
    const after = await db.selectFrom('mcp_tools').selectAll().orderBy('name').execute();
    assert.deepEqual(
      after.map((t) => [t.name, t.status, t.approved_hash === t.hash]),
      [
        ['kept', 'approved', true],
        ['moved', 'quarantined', false],
      ],
    );
    assert.equal(after[1].approved_definition?.description, 'Old words');
    assert.deepEqual(
      (await listUsableTools(db, serverId)).map((t) => t.name),
      ['kept'],
    );
  });
});
