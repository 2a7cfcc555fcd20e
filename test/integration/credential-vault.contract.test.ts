import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../../db/database';
import { createWorkspace } from '../../db/workspace.repository';
import { postgresBinDir } from '../../lib/embedded/postgres-cluster';
import { deriveKey } from '../../lib/master-key';
import type { CredentialRef, CredentialVault } from '../../lib/vault/credential-vault';
import { createLocalVault } from '../../lib/vault/local-vault';
import { createOpenBaoVault } from '../../lib/vault/openbao-vault';
import { harness, type Harness } from '../helpers/harness';

const secret = (label: string): string => `${label}-${crypto.randomBytes(12).toString('hex')}`;
const newWorkspace = async (db: Db): Promise<string> => (await createWorkspace(db, `vault-${crypto.randomUUID()}`)).id;

/** Every value any test in this file stored; the pg_dump check looks for all of them. */
const storedSecrets: string[] = [];

/** The behaviour every CredentialVault backend must share. */
function credentialVaultContract(backend: 'local' | 'vault', open: (h: Harness) => CredentialVault): void {
  describe(`credential vault contract: ${backend}`, () => {
    let h: Harness;
    let vault: CredentialVault;
    let workspaceId: string;

    before(async () => {
      h = await harness();
      vault = open(h);
      workspaceId = await newWorkspace(h.db);
    });

    const ref = (credentialId: string, ws = workspaceId): CredentialRef => ({ workspaceId: ws, credentialId });

    it(`reports backend ${backend}`, () => {
      assert.equal(vault.backend, backend);
    });

    it('returns what was put', async () => {
      const value = secret('round-trip');
      storedSecrets.push(value);
      await vault.put(ref('mcp-server:github'), value);
      assert.equal(await vault.get(ref('mcp-server:github')), value);
    });

    it('overwrites a value on a second put', async () => {
      const first = secret('first');
      const second = secret('second');
      storedSecrets.push(second);
      await vault.put(ref('integration:openai'), first);
      await vault.put(ref('integration:openai'), second);
      assert.equal(await vault.get(ref('integration:openai')), second);
    });

    it('forgets a deleted value', async () => {
      await vault.put(ref('integration:deleted'), secret('deleted'));
      await vault.delete(ref('integration:deleted'));
      assert.equal(await vault.get(ref('integration:deleted')), null);
    });

    it('returns null for an id never stored', async () => {
      assert.equal(await vault.get(ref('mcp-server:never-stored')), null);
    });

    it('accepts deleting an id never stored', async () => {
      await vault.delete(ref('mcp-server:never-stored'));
      assert.equal(await vault.get(ref('mcp-server:never-stored')), null);
    });

    it('keeps workspaces apart: same id, different values, delete in one leaves the other', async () => {
      const other = await newWorkspace(h.db);
      const mine = secret('mine');
      const theirs = secret('theirs');
      storedSecrets.push(mine, theirs);
      await vault.put(ref('integration:slack'), mine);
      assert.equal(await vault.get(ref('integration:slack', other)), null);
      await vault.put(ref('integration:slack', other), theirs);
      await vault.delete(ref('integration:slack', other));
      assert.equal(await vault.get(ref('integration:slack')), mine);
      assert.equal(await vault.get(ref('integration:slack', other)), null);
    });

    it('round-trips unicode, control characters and a 64 KiB value exactly', async () => {
      const unicode = `clé-🔑-密钥-\u0301-"quoted"\\-\n\t-${secret('unicode')}`;
      const big = crypto.randomBytes(48 * 1024).toString('base64');
      assert.equal(big.length, 64 * 1024);
      await vault.put(ref('integration:unicode'), unicode);
      await vault.put(ref('integration:big'), big);
      assert.equal(await vault.get(ref('integration:unicode')), unicode);
      assert.equal(await vault.get(ref('integration:big')), big);
      storedSecrets.push(unicode, big);
    });

    it('round-trips an empty value as an empty string, not as missing', async () => {
      await vault.put(ref('integration:empty'), '');
      assert.equal(await vault.get(ref('integration:empty')), '');
    });

    for (const bad of [
      '',
      'no-colon',
      'mcp-server:',
      'mcp-server:a/b',
      '../etc:passwd',
      'Upper:case',
      `x:${'a'.repeat(129)}`,
      'x:a b',
    ]) {
      it(`rejects credential id ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 20)}…` : bad)} on put, get and delete`, async () => {
        await assert.rejects(vault.put(ref(bad), 'v'), /credential id must look like kind:name/);
        await assert.rejects(vault.get(ref(bad)), /credential id must look like kind:name/);
        await assert.rejects(vault.delete(ref(bad)), /credential id must look like kind:name/);
      });
    }

    it("deletes a workspace's credentials page by page, every one, and no other workspace's", async () => {
      const doomed = await newWorkspace(h.db);
      const other = await newWorkspace(h.db);
      const ids = ['integration:openai', 'integration:anthropic', 'mcp-server:a', 'mcp-server:b', 'mcp-server:c'];
      for (const id of ids) await vault.put(ref(id, doomed), secret('doomed'));
      const kept = secret('kept');
      storedSecrets.push(kept);
      await vault.put(ref('mcp-server:a', other), kept);
      const pages: number[] = [];
      for (let n = -1; n !== 0;) pages.push((n = await vault.deleteWorkspacePage(doomed, 2)));
      assert.deepEqual(pages, [2, 2, 1, 0]);
      for (const id of ids) assert.equal(await vault.get(ref(id, doomed)), null, id);
      assert.equal(await vault.get(ref('mcp-server:a', other)), kept);
      assert.equal(await vault.deleteWorkspacePage(await newWorkspace(h.db), 1000), 0);
      await assert.rejects(vault.deleteWorkspacePage('../../sys', 10), /workspace id must be a UUID/);
    });

    it('rejects a workspace id that is not a UUID', async () => {
      await assert.rejects(vault.put(ref('integration:x', '../../sys'), 'v'), /workspace id must be a UUID/);
      await assert.rejects(vault.get(ref('integration:x', 'not-a-uuid')), /workspace id must be a UUID/);
    });
  });
}

credentialVaultContract('local', (h) => createLocalVault(h.db, deriveKey(h.masterKey, 'credential-store')));
credentialVaultContract('vault', (h) =>
  createOpenBaoVault({ address: h.openbao.address, token: h.openbao.token, mount: 'secret' }),
);

describe('local credential vault at rest', () => {
  let h: Harness;
  let vault: CredentialVault;
  let workspaceId: string;

  before(async () => {
    h = await harness();
    vault = createLocalVault(h.db, deriveKey(h.masterKey, 'credential-store'));
    workspaceId = await newWorkspace(h.db);
  });

  const row = (credentialId: string, ws = workspaceId) =>
    h.db
      .selectFrom('credentials')
      .selectAll()
      .where('workspace_id', '=', ws)
      .where('credential_id', '=', credentialId)
      .executeTakeFirstOrThrow();

  it('writes a fresh nonce and a different ciphertext each time the same value is stored', async () => {
    const value = secret('same-value');
    storedSecrets.push(value);
    await vault.put({ workspaceId, credentialId: 'integration:same' }, value);
    const first = await row('integration:same');
    await vault.put({ workspaceId, credentialId: 'integration:same' }, value);
    const second = await row('integration:same');
    assert.equal(first.nonce.length, 12);
    assert.notDeepEqual(first.nonce, second.nonce);
    assert.notDeepEqual(first.ciphertext, second.ciphertext);
    assert.equal(second.ciphertext.includes(Buffer.from(value)), false);
  });

  it('refuses to open a ciphertext copied to another workspace or read with another key', async () => {
    const other = await newWorkspace(h.db);
    await vault.put({ workspaceId, credentialId: 'integration:bound' }, secret('bound'));
    const { nonce, ciphertext, auth_tag } = await row('integration:bound');
    await h.db
      .insertInto('credentials')
      .values({ workspace_id: other, credential_id: 'integration:bound', nonce, ciphertext, auth_tag })
      .execute();
    await assert.rejects(vault.get({ workspaceId: other, credentialId: 'integration:bound' }));
    const wrongKey = createLocalVault(h.db, crypto.randomBytes(32));
    await assert.rejects(wrongKey.get({ workspaceId, credentialId: 'integration:bound' }));
  });
});

describe('OpenBao credential vault at rest', () => {
  let h: Harness;
  let vault: CredentialVault;
  let workspaceId: string;

  before(async () => {
    h = await harness();
    vault = createOpenBaoVault({ address: h.openbao.address, token: h.openbao.token, mount: 'secret' });
    workspaceId = await newWorkspace(h.db);
  });

  const rawGet = (suffix: string): Promise<Response> =>
    fetch(`${h.openbao.address}/v1/secret/${suffix}`, { headers: { 'X-Vault-Token': h.openbao.token } });

  it('stores the value in OpenBao KV v2 under secret/data/assay/<workspace>/<credential id>', async () => {
    const value = secret('in-openbao');
    storedSecrets.push(value);
    await vault.put({ workspaceId, credentialId: 'mcp-server:linear' }, value);
    const res = await rawGet(`data/assay/${workspaceId}/mcp-server:linear`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { data: { data: { value: string } } };
    assert.equal(body.data.data.value, value);
    const rows = await h.db
      .selectFrom('credentials')
      .select('credential_id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    assert.deepEqual(rows, []);
  });

  it('removes every version on delete, so no old value stays readable', async () => {
    await vault.put({ workspaceId, credentialId: 'mcp-server:old' }, secret('v1'));
    await vault.put({ workspaceId, credentialId: 'mcp-server:old' }, secret('v2'));
    await vault.delete({ workspaceId, credentialId: 'mcp-server:old' });
    assert.equal((await rawGet(`metadata/assay/${workspaceId}/mcp-server:old`)).status, 404);
    assert.equal((await rawGet(`data/assay/${workspaceId}/mcp-server:old?version=1`)).status, 404);
  });

  it('reports an unreachable server without echoing the token or the value', async () => {
    const value = secret('unreachable');
    const token = secret('token');
    const dead = createOpenBaoVault({ address: 'http://127.0.0.1:1', token, mount: 'secret' });
    await assert.rejects(dead.put({ workspaceId, credentialId: 'integration:x' }, value), (error: Error) => {
      assert.match(error.message, /credential vault write failed/);
      assert.equal(JSON.stringify({ ...error, message: error.message, stack: error.stack }).includes(token), false);
      assert.equal(JSON.stringify({ ...error, message: error.message, stack: error.stack }).includes(value), false);
      return true;
    });
  });
});

describe('pg_dump of the test database', () => {
  it('holds the credentials table but none of the stored secret values, in plain, base64 or hex', async () => {
    const h = await harness();
    const remaining = await h.db
      .selectFrom('credentials')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    assert.ok(Number(remaining.n) > 0, 'the contract suites left credentials stored');
    assert.ok(storedSecrets.length >= 5, 'the contract suites recorded the values they stored');
    const { stdout } = await promisify(execFile)(
      `${postgresBinDir()}/pg_dump`,
      ['--no-owner', '--dbname', h.databaseUrl],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    assert.match(stdout, /COPY public\.credentials /);
    for (const value of storedSecrets) {
      const utf8 = Buffer.from(value);
      for (const form of [value, utf8.toString('base64'), utf8.toString('hex'), value.slice(0, 32)]) {
        assert.equal(stdout.includes(form), false, `pg_dump contains a stored secret (${form.slice(0, 12)}…)`);
      }
    }
  });
});
