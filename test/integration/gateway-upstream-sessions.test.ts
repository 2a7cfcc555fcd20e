import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LinkedServer } from '../../gateway/forward/upstream';
import { StdioPool } from '../../gateway/stdio-pool';
import { Upstreams, type UpstreamDeps } from '../../gateway/upstreams';
import { waitFor } from '../../lib/embedded/process-utils';
import { oauthClientUrls } from '../../lib/mcp/oauth-vault';
import { createEgressGuard } from '../../lib/outbound/egress/egress-guard';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { everythingStdioEntry } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import type { HttpIntercept, ServedMcp } from '../helpers/stateful-mcp-http';
import { startTemplateMcpPeer } from '../helpers/template-mcp-peer';
import { createTenant } from '../helpers/tenants';

/** An upstream coming back from a restart: once armed, its next `initialize` is held until `fail()` answers it 503. */
function restartingUpstream() {
  let armed = false;
  let held: (() => void) | undefined;
  let arrived: () => void = () => undefined;
  const intercept: HttpIntercept = (_req, res, body) => {
    if (!armed || (body as { method?: string } | undefined)?.method !== 'initialize') return false;
    armed = false;
    held = () => void res.writeHead(503).end('restarting');
    arrived();
    return true;
  };
  return {
    intercept,
    /** Holds the next initialize; resolves when it arrives. */
    arm: () => ((armed = true), new Promise<void>((resolve) => (arrived = resolve))),
    fail: () => held?.(),
  };
}

/**
 * A gateway session's upstream sessions (`Upstreams`) against real upstream servers and a real Postgres and OpenBao:
 * requests racing over a dead or failed upstream session open one new session between them, and nothing is opened or
 * kept once the gateway session is closed (an HTTP upstream's sessions are counted at it; a stdio child's lease must
 * free the workspace's slot).
 */
describe('gateway upstream sessions reopened once, never after close', () => {
  const marker = `assay-upstreams-${crypto.randomBytes(6).toString('hex')}`;
  const restart = restartingUpstream();
  let platform: TestPlatform;
  let peer: ServedMcp;
  let proxy: CountingProxy;
  let pool: StdioPool;
  let deps: UpstreamDeps;
  let workspaceId: string;
  const links: Record<'http' | 's1' | 's2', LinkedServer> = {} as never;

  const children = async (): Promise<number> =>
    (await promisify(execFile)('ps', ['-eo', 'args'])).stdout.split('\n').filter((line) => line.includes(marker))
      .length;
  /** Upstream sessions the gateway opened at the HTTP server and did not end (refused initializes aside). */
  const openAtUpstream = (refused: number): number =>
    proxy.methods().filter((m) => m === 'initialize').length -
    refused -
    proxy.httpMethods().filter((m) => m === 'DELETE').length;
  const upstreams = (): Upstreams => {
    const opened = new Upstreams(deps, workspaceId);
    opened.retain(Object.values(links));
    return opened;
  };

  before(async () => {
    const h = await harness();
    const catalogFile = path.join(h.tmpDir, `catalog-${marker}.json`);
    fs.writeFileSync(catalogFile, JSON.stringify({ entries: [everythingStdioEntry(marker)] }));
    platform = await createTestPlatform(h, { env: { MCP_CATALOG_FILE: catalogFile, EGRESS_ALLOWLIST: '127.0.0.1' } });
    peer = await startTemplateMcpPeer('restarting', [], restart.intercept);
    proxy = await startCountingProxy(peer.url);
    const tenant = await createTenant(h.db, 'owner');
    workspaceId = tenant.workspaceId;
    const api = evalApi(platform.app, tenant);
    const entry = (await api.send('get', '/api/v1/mcp-catalog', 200)).find(
      (e: { name: string }) => e.name === 'everything-stdio',
    );
    const http = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'http',
      transport: 'http',
      config: { url: proxy.url },
    });
    links.http = { serverId: http.id, serverName: 'http', prefix: 'http__', version: 'v1', pooled: false };
    for (const name of ['s1', 's2'] as const) {
      const server = await api.send('post', '/api/v1/mcp-servers', 201, {
        catalog_id: entry.id,
        name,
        transport: 'stdio_curated',
        secret_value: `key-${name}`,
      });
      links[name] = { serverId: server.id, serverName: name, prefix: `${name}__`, version: 'v1', pooled: true };
    }
    const guard = createEgressGuard({ allowlist: '127.0.0.1' });
    pool = new StdioPool(guard, 60_000, 1);
    deps = {
      db: platform.runtime.db,
      vault: platform.runtime.vault,
      guard,
      pool,
      oauthClient: oauthClientUrls(platform.config),
    };
  });
  after(async () => {
    await pool?.close();
    await proxy?.close();
    await peer?.close();
    await platform?.close();
  });

  it('opens one HTTP upstream session for requests that all waited on one refused by a restarting upstream', async () => {
    const session = upstreams();
    const arrived = restart.arm();
    const racing = Promise.allSettled([1, 2, 3].map(() => session.get(links.http.serverId)));
    await arrived;
    restart.fail();
    const [first, ...others] = await racing;
    assert.equal(first.status, 'rejected');
    assert.deepEqual(
      others.map((o) => o.status),
      ['fulfilled', 'fulfilled'],
    );
    assert.equal(openAtUpstream(1), 1, 'upstream sessions open after the race');
    await session.close();
    assert.equal(openAtUpstream(1), 0, 'upstream sessions open after close');
  });

  it('opens no upstream session once closed, not even for a request that was waiting when it closed', async () => {
    const session = upstreams();
    const arrived = restart.arm();
    const waiting = Promise.allSettled([1, 2].map(() => session.get(links.http.serverId)));
    await arrived;
    const closing = session.close();
    restart.fail();
    await closing;
    assert.deepEqual(
      (await waiting).map((w) => w.status),
      ['rejected', 'rejected'],
    );
    await assert.rejects(session.get(links.http.serverId), /the gateway session is closed/);
    assert.equal(openAtUpstream(2), 0, 'upstream sessions open after close');
  });

  it('frees the workspace’s stdio slot after requests raced over a dead child and the session closed', async () => {
    const session = upstreams();
    const first = await session.get(links.s1.serverId);
    const [pid] = (await promisify(execFile)('ps', ['-eo', 'pid,args'])).stdout
      .split('\n')
      .filter((line) => line.includes(marker))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
    process.kill(pid, 'SIGKILL');
    await waitFor('the gateway to see the child exit', async () => first.client.transport === undefined, 10_000);
    const [a, b] = await Promise.all([session.get(links.s1.serverId), session.get(links.s1.serverId)]);
    await session.close();
    // One slot per workspace here: the other server's child starts only if the first child's slot was freed.
    const other = upstreams();
    await other.get(links.s2.serverId);
    await waitFor('the first child to stop, the other to run', async () => (await children()) === 1, 10_000);
    await other.close();
    assert.ok(a === b, 'the two requests use two new leases, not one');
  });
});
