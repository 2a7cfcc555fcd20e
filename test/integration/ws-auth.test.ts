import assert from 'node:assert/strict';
import request from 'supertest';
import { ensureUser } from '../../db/account.repository';
import { revokeApiToken } from '../../db/api-token.repository';
import { upsertMembership } from '../../db/member.repository';
import { issueToken } from '../../lib/api-tokens';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { openRelay, serveWithRelay, type RelayClient, type ServedApi } from '../helpers/relay-client';
import { insertQueuedRun } from '../helpers/queued-run';
import { createTenant, type Tenant } from '../helpers/tenants';
import type { EvalRelayOptions } from '../../api/ws/eval-relay';

const RECHECK_MS = 200;
const UNKNOWN_RUN = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Resolves with the close, failing the test when the socket is still open after `ms`. */
function closedWithin(client: RelayClient, ms: number): Promise<{ code: number; reason: string }> {
  return Promise.race([
    client.closed,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`the socket was still open after ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describe('WebSocket re-checks who is there', () => {
  let platform: TestPlatform;
  const served: ServedApi[] = [];
  const clients: RelayClient[] = [];

  const serve = async (options: EvalRelayOptions = {}): Promise<ServedApi> => {
    const api = await serveWithRelay(
      platform.app,
      { config: platform.config, db: platform.runtime.db, logger: platform.logger },
      options,
    );
    served.push(api);
    return api;
  };
  const connect = async (api: ServedApi, tenant: Tenant): Promise<RelayClient> => {
    const client = await openRelay(api.wsUrl, { protocolToken: tenant.token });
    clients.push(client);
    return client;
  };
  const revoke = async (tenant: Tenant): Promise<void> => {
    const { id } = await platform.runtime.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', tenant.userId)
      .executeTakeFirstOrThrow();
    assert.ok(await revokeApiToken(platform.runtime.db, tenant.userId, id));
  };
  /** Resolves once the socket answers a message, i.e. the relay serves it; fails the test after 10 s otherwise. */
  const answers = async (client: RelayClient): Promise<void> => {
    const from = client.messages.length;
    client.send({ type: 'unsubscribe', run_id: 'ping' });
    const answer = await client.waitFor((m) => m.type === 'unsubscribed', 10_000, from);
    assert.equal(answer.run_id, 'ping');
  };

  before(async () => {
    // The re-check interval comes from the configuration, shortened here so revocation is seen within 200 ms.
    platform = await createTestPlatform(await harness(), { env: { WS_TOKEN_RECHECK_MS: String(RECHECK_MS) } });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  after(async () => {
    for (const api of served) await api.close();
    await platform?.close();
  });

  it('closes every open socket of a revoked token with 4401 at the next re-check, and keeps the other tokens', async () => {
    const api = await serve();
    const [revoked, other] = [await createTenant(platform.runtime.db), await createTenant(platform.runtime.db)];
    const first = await connect(api, revoked);
    const second = await connect(api, revoked);
    const bystander = await connect(api, other);
    await answers(first);

    await revoke(revoked);
    for (const client of [first, second]) {
      assert.deepEqual(await closedWithin(client, 10_000), { code: 4401, reason: 'token revoked or expired' });
    }
    assert.ok(platform.logs.some((line) => line.includes('closed the sockets of a revoked or expired token')));
    await answers(bystander);
  });

  it('closes the socket of a token that expires while it is open with 4401', async () => {
    const api = await serve();
    const expiring = await createTenant(platform.runtime.db, 'owner', new Date(Date.now() + 2_000));
    const client = await connect(api, expiring);
    await answers(client);
    assert.equal((await closedWithin(client, 15_000)).code, 4401);
  });

  it("ends a removed member's subscriptions with forbidden at the next re-check, and keeps the socket", async () => {
    const db = platform.runtime.db;
    const api = await serve();
    const owner = await createTenant(db, 'owner');
    const run = await insertQueuedRun(db, owner.workspaceId);
    const user = await ensureUser(db, `leaver-${owner.workspaceId}@example.test`, 'Leaver');
    await upsertMembership(db, owner.workspaceId, user.id, 'viewer');
    const { token } = await issueToken(db, { userId: user.id, workspaceId: owner.workspaceId, name: 'ws' });
    const member = await connect(api, { ...owner, userId: user.id, token, auth: { Authorization: `Bearer ${token}` } });
    member.subscribe(run.id);
    await member.waitFor((m) => m.type === 'snapshot' && m.run_id === run.id, 10_000);

    const from = member.messages.length;
    await request(platform.app).delete(`/api/workspaces/current/members/${user.id}`).set(owner.auth).expect(204);
    const ended = await member.waitFor((m) => m.type === 'error' && m.run_id === run.id, 10_000, from);
    assert.equal(ended.code, 'forbidden');
    await answers(member);
    const again = member.messages.length;
    member.subscribe(run.id);
    const refused = await member.waitFor((m) => m.type === 'error' && m.run_id === run.id, 10_000, again);
    assert.equal(refused.code, 'not_found', 'a subscribe after the removal is refused too');
  });

  it('closes with 4401 on the first subscribe after revocation, without waiting for the periodic re-check', async () => {
    const api = await serve({ tokenRecheckMs: 60_000 });
    const tenant = await createTenant(platform.runtime.db);
    const client = await connect(api, tenant);
    client.subscribe(UNKNOWN_RUN(1));
    assert.equal((await client.waitFor((m) => m.type === 'error')).code, 'not_found');

    await revoke(tenant);
    client.subscribe(UNKNOWN_RUN(2));
    assert.equal((await closedWithin(client, 10_000)).code, 4401);
    assert.ok(!client.messages.some((m) => m.run_id === UNKNOWN_RUN(2)), 'the subscribe was not served');
  });

  it('closes a socket over the per-token cap with 4429, and takes one again once a place is free', async () => {
    const api = await serve({ maxSocketsPerToken: 2 });
    const [tenant, other] = [await createTenant(platform.runtime.db), await createTenant(platform.runtime.db)];
    const kept = [await connect(api, tenant), await connect(api, tenant)];
    const over = await connect(api, tenant);
    assert.deepEqual(await closedWithin(over, 10_000), { code: 4429, reason: 'at most 2 open sockets per token' });
    for (const client of kept) await answers(client);
    await answers(await connect(api, other));

    kept[0].close();
    await kept[0].closed;
    // The server forgets the socket when its side of the close completes: try again until it has.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const retry = await connect(api, tenant);
      const outcome = await Promise.race([retry.closed.then(({ code }) => code), answers(retry).then(() => 'served')]);
      if (outcome === 'served') break;
      assert.equal(outcome, 4429);
      assert.ok(Date.now() < deadline, 'the freed place was never taken again');
    }
  });

  it('answers rate_limited to subscribes beyond the per-socket burst, keeping the socket and the other sockets', async () => {
    const api = await serve({ subscribeBurst: 3, subscribesPerSecond: 0.001 });
    const tenant = await createTenant(platform.runtime.db);
    const client = await connect(api, tenant);
    for (let i = 1; i <= 5; i++) client.subscribe(UNKNOWN_RUN(i));
    await client.waitForCount((m) => m.type === 'error', 5);
    const codeOf = (n: number): string => client.messages.find((m) => m.run_id === UNKNOWN_RUN(n)).code;
    assert.deepEqual([1, 2, 3, 4, 5].map(codeOf), [
      'not_found',
      'not_found',
      'not_found',
      'rate_limited',
      'rate_limited',
    ]);
    assert.equal(
      client.messages.find((m) => m.code === 'rate_limited').message,
      'at most 3 subscribes at once, then 0.001 per second',
    );
    await answers(client);

    const sibling = await connect(api, tenant);
    sibling.subscribe(UNKNOWN_RUN(6));
    assert.equal(
      (await sibling.waitFor((m) => m.type === 'error')).code,
      'not_found',
      'each socket has its own bucket',
    );
  });
});
