import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { startHostilePeerRig, type HostilePeerRig } from '../helpers/hostile-peer-rig';
import type { TestPlatform } from '../helpers/platform';
import type { Tenant } from '../helpers/tenants';
import { LIMITS } from '../../domain/limits';
import { makeTools, type PagedMcpServer, type PagedTool } from '../helpers/paged-mcp-server';

type Page = { tools: PagedTool[]; nextCursor?: string };
const BOUNDED_MS = 20_000;
const tool = (name: string, description = 'd'): PagedTool => ({ ...makeTools(1)[0], name, description });

// Pages that never end: each names a fresh cursor.
const endless =
  (tools: (page: number) => PagedTool[], cursor = (page: number) => `c${page}`) =>
  (asked: string | undefined): Page => {
    const page = asked === undefined ? 0 : Number(asked.replace(/^c/, '')) || 0;
    return { tools: tools(page), nextCursor: cursor(page + 1) };
  };

describe('hostile tool lists: a sync and the gateway stop at named bounds, in bounded time', function () {
  this.timeout(240_000);
  let rig: HostilePeerRig;
  let platform: TestPlatform;
  let peer: PagedMcpServer;
  let owner: Tenant;
  let serverId: string;
  let client: Client;

  before(async () => {
    rig = await startHostilePeerRig('lists', { pageSize: 10, tools: makeTools(3), sse: true });
    ({ platform, peer, owner, serverId, client } = rig);
  });
  afterEach(() => {
    peer.setListPage(undefined);
    peer.setListStorm(0);
  });
  after(() => rig?.close());

  // The sync and a gateway call (whose approved definition is checked against a fresh listing) both refuse, naming
  // `limit`, within BOUNDED_MS each; answers how many pages the server was asked for, by the sync.
  async function refusedBoth(page: ((cursor: string | undefined) => Page) | undefined, limit: string): Promise<number> {
    peer.setListPage(page);
    const lists = peer.listCount();
    let started = performance.now();
    const res = await request(platform.app).post(`/api/v1/mcp-servers/${serverId}/refresh-tools`).set(owner.auth);
    const syncMs = performance.now() - started;
    const syncPages = peer.listCount() - lists;
    assert.equal(res.status, 502, res.text);
    assert.match(res.body.error.message, new RegExp(`\\(limit ${limit}\\)`));
    assert.ok(syncMs < BOUNDED_MS, `the sync took ${Math.round(syncMs)} ms`);
    started = performance.now();
    const call = await client.callTool({ name: 'lists__t000', arguments: { text: 'x' } }).then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    const callMs = performance.now() - started;
    assert.match(call, new RegExp(`did not list its tools to check the definition: .*\\(limit ${limit}\\)`));
    assert.ok(callMs < BOUNDED_MS, `the gateway call took ${Math.round(callMs)} ms`);
    return syncPages;
  }

  it('refuses 10,000 tools on one page at toolsPerMcpServer', async () => {
    const many = makeTools(10_000);
    assert.equal(await refusedBoth(() => ({ tools: many }), 'toolsPerMcpServer'), 1);
  });

  it('refuses pages of tools with huge descriptions once their bytes pass toolListBytes', async () => {
    const description = 'x'.repeat(60_000);
    const perPage = Math.floor((LIMITS.mcpResponseBytes * 0.9) / description.length);
    const pages = endless((page) => Array.from({ length: perPage }, (_, i) => tool(`p${page}_${i}`, description)));
    const asked = await refusedBoth(pages, 'toolListBytes');
    assert.equal(asked, Math.ceil(LIMITS.toolListBytes / (perPage * description.length)));
  });

  it('stops following never-ending cursors at toolListPages', async () => {
    const pages = endless((page) => [tool(`e${page}`)]);
    assert.equal(await refusedBoth(pages, 'toolListPages'), LIMITS.toolListPages);
  });

  it('refuses a cursor longer than mcpCursorChars before asking for its page', async () => {
    const pages = endless(
      (page) => [tool(`l${page}`)],
      () => 'c'.repeat(LIMITS.mcpCursorChars + 1),
    );
    assert.equal(await refusedBoth(pages, 'mcpCursorChars'), 1);
  });

  it('ends a listing drowned in list_changed notifications at mcpResponseBytes', async () => {
    peer.setListStorm(1_000);
    assert.equal(await refusedBoth(undefined, 'mcpResponseBytes'), 1);
  });
});
