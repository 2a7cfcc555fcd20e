import assert from 'node:assert/strict';
import request from 'supertest';
import { listen } from '../../cli/http-server';
import { grantOperator } from '../../db/account.repository';
import { runAssay, type CliResult } from '../helpers/assay-cli';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

// The commands of workspaces, members, personal and service tokens, spawned against a real api (contract of issue 13).
describe('assay workspace, member, token and service-token commands over HTTP', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let operator: Tenant;
  let env: NodeJS.ProcessEnv;
  let closeHttp: () => Promise<void>;
  let teamB: { id: string; name: string; role: string };

  /** Runs `assay ...args` as `token` (default: the operator's) and asserts exit code 0. */
  const ok = async (args: string[], token = operator.token): Promise<CliResult> => {
    const result = await runAssay(args, { ...env, ASSAY_TOKEN: token });
    assert.equal(result.code, 0, `assay ${args.join(' ')}: ${result.stderr}`);
    return result;
  };
  const json = async (args: string[], token?: string): Promise<any> =>
    JSON.parse((await ok([...args, '--json'], token)).stdout);
  const status = async (token: string, path = '/api/ai-agents'): Promise<number> =>
    (await request(platform.app).get(path).set('Authorization', `Bearer ${token}`)).status;

  before(async () => {
    platform = await createTestPlatform(await harness());
    const http = await listen(platform.app, '127.0.0.1', 0);
    closeHttp = http.close;
    operator = await createTenant(platform.runtime.db, 'owner');
    // Creating workspaces is for operators by default (WORKSPACE_CREATION=operators).
    await grantOperator(platform.runtime.db, operator.userId);
    env = {
      ASSAY_URL: `http://127.0.0.1:${(http.server.address() as { port: number }).port}`,
      ASSAY_WORKSPACE: '',
    };
  });
  after(async () => {
    await closeHttp?.();
    await platform?.close();
  });

  it('creates, lists and renames a workspace, as JSON and as a table', async () => {
    teamB = await json(['workspace', 'create', 'team-b']);
    assert.equal(teamB.name, 'team-b');
    assert.equal(teamB.role, 'owner');
    const listed: any[] = await json(['workspace', 'list']);
    assert.deepEqual(listed.map((w) => w.id).sort(), [operator.workspaceId, teamB.id].sort());
    const renamed = await json(['workspace', 'rename', teamB.id, 'team-b2']);
    assert.equal(renamed.name, 'team-b2');
    const table = (await ok(['workspace', 'list'])).stdout;
    assert.match(table, /│ id\s+│ name\s+│ role\s+│ created_at\s+│/);
    assert.match(table, new RegExp(`│ ${teamB.id}\\s+│ team-b2\\s+│ owner\\s+│`));
  });

  it('adds a new person with an invite token that works in that workspace, changes their role and removes them', async () => {
    const inWorkspace = ['--workspace', teamB.id];
    const added = await json(['member', 'add', 'newcomer@example.test', '--role', 'viewer', ...inWorkspace]);
    assert.equal(added.email, 'newcomer@example.test');
    assert.equal(added.role, 'viewer');
    assert.match(added.invite_token, /^assay_/);
    assert.equal(await status(added.invite_token), 200);

    const members: any[] = await json(['member', 'list', ...inWorkspace]);
    assert.deepEqual(
      members.map((m) => [m.user_id, m.role]).sort(),
      [
        [added.user_id, 'viewer'],
        [operator.userId, 'owner'],
      ].sort(),
    );
    // A viewer may not see the members: the API's refusal exits 2 naming the permission.
    const refused = await runAssay(['member', 'list', ...inWorkspace], { ...env, ASSAY_TOKEN: added.invite_token });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /members:view/);

    const changed = await json(['member', 'set-role', 'newcomer@example.test', 'builder', ...inWorkspace]);
    assert.equal(changed.role, 'builder');
    const human = await ok(['member', 'remove', added.user_id, ...inWorkspace]);
    assert.match(human.stdout, new RegExp(`removed ${added.user_id}`));
    const left: any[] = await json(['member', 'list', ...inWorkspace]);
    assert.deepEqual(
      left.map((m) => m.user_id),
      [operator.userId],
    );
    assert.equal(await status(added.invite_token), 403, 'no longer a member of the workspace');
  });

  it('creates a service token shown once, lists it without its secret, and revokes it', async () => {
    const inWorkspace = ['--workspace', teamB.id];
    const created = await json(['service-token', 'create', '--name', 'ci', '--role', 'viewer', ...inWorkspace]);
    assert.match(created.token, /^assay_svc_/);
    assert.equal(created.role, 'viewer');
    assert.equal(await status(created.token), 200);
    const listed: any[] = await json(['service-token', 'list', ...inWorkspace]);
    assert.deepEqual(
      listed.map((t) => [t.id, t.name, t.role]),
      [[created.id, 'ci', 'viewer']],
    );
    assert.ok(listed.every((t) => !('token' in t)));
    const table = (await ok(['service-token', 'list', ...inWorkspace])).stdout;
    assert.match(table, new RegExp(`│ ${created.id}\\s+│ ci\\s+│ viewer\\s+│`));
    assert.ok(!table.includes(created.token));
    await ok(['service-token', 'revoke', created.id, ...inWorkspace]);
    assert.equal(await status(created.token), 401);
  });

  it("creates, lists and revokes the caller's own token over HTTP", async () => {
    const human = await ok(['token', 'create', '--name', 'laptop', '--expires-in-days', '30']);
    assert.match(human.stderr, /The personal token is shown only this once/);
    const token = /│ token\s+│ (\S+)\s+│/.exec(human.stdout)?.[1] ?? '';
    assert.equal(await status(token), 200);
    const listed: any[] = await json(['token', 'list']);
    const laptop = listed.find((t) => t.name === 'laptop');
    assert.ok(laptop && Date.parse(laptop.expires_at) > Date.now() + 29 * 86_400_000, JSON.stringify(listed));
    assert.ok(!JSON.stringify(listed).includes(token), 'never a secret');
    await ok(['token', 'revoke', laptop.id]);
    assert.equal(await status(token), 401);
  });

  it('deletes a workspace with --yes: it leaves the list and is unusable at once', async () => {
    const deleted = await json(['workspace', 'delete', teamB.id, '--yes']);
    assert.deepEqual(deleted, { id: teamB.id, deletion: 'started' });
    const listed: any[] = await json(['workspace', 'list']);
    assert.deepEqual(
      listed.map((w) => w.id),
      [operator.workspaceId],
    );
    const inB = await request(platform.app).get('/api/ai-agents').set(operator.auth).set('X-Workspace-Id', teamB.id);
    assert.equal(inB.status, 403);
  });
});
