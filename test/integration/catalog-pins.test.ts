import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { harness, type Harness } from '../helpers/harness';

const entry = (name: string, command: string[]) => ({
  name,
  label: name,
  image: 'https://example.com/i.png',
  transport: 'stdio_curated',
  command,
});

describe('operator catalog file: stdio commands must pin exact package versions', function () {
  this.timeout(120_000);
  let h: Harness;

  // `assay migrate` runs the same migrate-and-seed step every process runs before it serves.
  const migrateWith = (entries: object[]): ReturnType<typeof spawnSync> => {
    const file = path.join(h.tmpDir, `catalog-${entries.length}-${Date.now()}.json`);
    fs.writeFileSync(file, JSON.stringify({ entries }));
    return spawnSync(process.execPath, ['bin/assay.js', 'migrate'], {
      env: {
        ...process.env,
        DATABASE_URL: h.databaseUrl,
        TEMPORAL_ADDRESS: h.temporalAddress,
        ASSAY_MASTER_KEY: h.masterKey.toString('base64'),
        ASSAY_DATA_DIR: h.tmpDir,
        MCP_CATALOG_FILE: file,
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
  };
  const storedNames = async (): Promise<string[]> =>
    (await h.db.selectFrom('mcp_catalog_entries').select('name').where('source', '=', 'operator').execute()).map(
      (row) => row.name,
    );

  before(async () => {
    h = await harness();
  });

  // The harness database is shared by every test file: the operator entries seeded here must not show up in others'
  // catalog listings.
  after(async () => {
    await h.db.deleteFrom('mcp_catalog_entries').where('source', '=', 'operator').execute();
  });

  it('refuses at seed an entry whose npx command names no version, saying which field and how to pin', async () => {
    const result = migrateWith([
      entry('pinned-ok', ['npx', '-y', 'pinned-mcp@1.4.0']),
      entry('floating', ['npx', '-y', '@example/floating-mcp']),
    ]);
    assert.equal(result.status, 2, String(result.stderr));
    assert.match(
      String(result.stderr),
      /MCP catalog .*catalog-2-\d+\.json: entries\.1\.command fetches @example\/floating-mcp without an exact version: pin it \(name@1\.2\.3\)/,
    );
    assert.deepEqual(await storedNames(), [], 'nothing of the refused file is stored');
  });

  it('refuses a uvx entry pinned to a range, and seeds the file once every command is exact', async () => {
    const refused = migrateWith([entry('ranged', ['uvx', 'ranged-mcp>=1.0'])]);
    assert.equal(refused.status, 2);
    assert.match(String(refused.stderr), /entries\.0\.command fetches ranged-mcp>=1\.0 without an exact version/);
    const seeded = migrateWith([entry('ranged', ['uvx', 'ranged-mcp==1.0.3'])]);
    assert.equal(seeded.status, 0, String(seeded.stderr));
    assert.deepEqual(await storedNames(), ['ranged']);
  });
});
