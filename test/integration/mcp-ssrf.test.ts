import assert from 'node:assert/strict';
import dns from 'node:dns/promises';
import os from 'node:os';
import request from 'supertest';
import { harness, type Harness } from '../helpers/harness';
import { startCountingListener, startHttpPeer, startSilentListener, type CountingListener } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

/** Every address here must be refused before any connection, with the allowlist empty. */
function privateTargets(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/mcp`,
    `http://localhost:${port}/mcp`,
    `http://LOCALHOST.:${port}/mcp`,
    `http://0.0.0.0:${port}/mcp`,
    `http://0:${port}/mcp`,
    `http://[::1]:${port}/mcp`,
    `http://[::]:${port}/mcp`,
    `http://[::ffff:127.0.0.1]:${port}/mcp`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${port}/mcp`,
    `http://2130706433:${port}/mcp`,
    `http://0x7f.1:${port}/mcp`,
    `http://0177.0.0.1:${port}/mcp`,
    `http://127.1:${port}/mcp`,
    `http://127.0.0.2:${port}/mcp`,
    `http://127.255.255.254:${port}/mcp`,
    `http://10.0.0.1:${port}/mcp`,
    `http://10.255.255.254/mcp`,
    `http://172.16.0.1/mcp`,
    `http://172.31.255.254/mcp`,
    `http://192.168.0.1/mcp`,
    `http://192.168.255.254/mcp`,
    `http://100.64.0.1/mcp`,
    `http://100.127.255.254/mcp`,
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.0.1/mcp',
    'http://[::ffff:169.254.169.254]/mcp',
    'http://[::ffff:10.0.0.1]/mcp',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata/computeMetadata/v1/',
    'http://[fc00::1]/mcp',
    'http://[fd12:3456:789a::1]/mcp',
    'http://[fe80::1]/mcp',
    'http://[64:ff9b::7f00:1]/mcp',
    'http://224.0.0.1/mcp',
    'http://255.255.255.255/mcp',
    'http://198.18.0.1/mcp',
    `http://admin@127.0.0.1:${port}/mcp`,
    `http://admin@example.com/mcp`,
  ];
}

describe('MCP servers: SSRF guard on the connection test', () => {
  let h: Harness;
  let tenant: Tenant;
  let listener: CountingListener;

  const createAndTest = async (
    platform: TestPlatform,
    url: string,
    name: string,
  ): Promise<{ status: string; message: string }> => {
    const created = await request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(tenant.auth)
      .send({ name, transport: 'http', config: { url } });
    assert.equal(created.status, 201, `${url}: ${created.text}`);
    const tested = await request(platform.app).post(`/api/v1/mcp-servers/${created.body.id}/test`).set(tenant.auth);
    assert.equal(tested.status, 200, `${url}: ${tested.text}`);
    return tested.body;
  };

  before(async () => {
    h = await harness();
    tenant = await createTenant(h.db, 'owner');
    listener = await startCountingListener();
  });
  after(async () => listener?.close());

  describe('with the allowlist empty', () => {
    let platform: TestPlatform;

    before(async () => {
      platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '' } });
      await platform.startWorker();
    });
    after(async () => platform?.close());

    it('answers status error for at least 30 private, loopback, metadata and userinfo targets, and never connects', async () => {
      const targets = privateTargets(listener.port);
      // A name this machine resolves to loopback through its own hosts file, besides localhost.
      const host = os.hostname();
      const resolved = await dns.lookup(host).catch(() => undefined);
      if (resolved && (resolved.address === '::1' || resolved.address.startsWith('127.')))
        targets.push(`http://${host}:${listener.port}/mcp`);
      assert.ok(targets.length >= 30);
      for (const [index, url] of targets.entries()) {
        const result = await createAndTest(platform, url, `ssrf-${index}`);
        assert.equal(result.status, 'error', `${url} was not refused`);
        assert.match(result.message, /^(blocked|DNS failure): /, `${url}: ${result.message}`);
      }
      assert.equal(listener.connections(), 0, 'the listener on the target saw a connection');
    });

    it('says how to allow a refused loopback server: EGRESS_ALLOWLIST', async () => {
      const { message } = await createAndTest(platform, `http://127.0.0.1:${listener.port}/mcp`, 'ssrf-msg-allow');
      assert.match(message, /127\.0\.0\.1 is a loopback address \(an operator can allow it with EGRESS_ALLOWLIST\)/);
    });

    it('names the refused range and the userinfo rule in the message', async () => {
      assert.match(
        (await createAndTest(platform, `http://127.1:${listener.port}/mcp`, 'ssrf-msg-1')).message,
        /127\.0\.0\.1 is a loopback address/,
      );
      assert.match((await createAndTest(platform, 'http://169.254.169.254/', 'ssrf-msg-2')).message, /link-local/);
      assert.match(
        (await createAndTest(platform, `http://admin@127.0.0.1:${listener.port}/`, 'ssrf-msg-3')).message,
        /userinfo/,
      );
      assert.match(
        (await createAndTest(platform, `http://localhost:${listener.port}/`, 'ssrf-msg-4')).message,
        /localhost resolves to .*loopback/,
      );
    });
  });

  describe('with only 127.0.0.2 and 127.0.0.3 allowlisted', () => {
    let platform: TestPlatform;
    let redirector: CountingListener;
    let silent: CountingListener;
    let htmlPeer: CountingListener;

    before(async () => {
      redirector = await startHttpPeer('127.0.0.2', (_req, res) =>
        res.writeHead(307, { location: `http://127.0.0.1:${listener.port}/mcp` }).end(),
      );
      htmlPeer = await startHttpPeer('127.0.0.3', (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
      );
      silent = await startSilentListener('127.0.0.3');
      platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.2,127.0.0.3' } });
      await platform.startWorker();
    });
    after(async () => {
      await platform?.close();
      await Promise.all([redirector?.close(), silent?.close(), htmlPeer?.close()]);
    });

    it('does not follow a redirect from an allowed server to a private address', async () => {
      const result = await createAndTest(platform, `http://127.0.0.2:${redirector.port}/mcp`, 'redirecting');
      assert.equal(result.status, 'error');
      assert.match(result.message, /redirect not followed \(HTTP 307\)/);
      assert.ok(redirector.connections() > 0, 'the allowed server was asked');
      assert.equal(listener.connections(), 0, 'the redirect target saw a connection');
    });

    it('reports a server that never answers as a 5000 ms timeout in about 5 seconds', async () => {
      const started = Date.now();
      const result = await createAndTest(platform, `http://127.0.0.3:${silent.port}/mcp`, 'silent');
      const elapsed = Date.now() - started;
      assert.equal(result.status, 'error');
      assert.equal(result.message, 'timeout after 5000 ms');
      assert.ok(elapsed >= 4500 && elapsed < 9000, `took ${elapsed} ms`);
      assert.ok(silent.connections() > 0, 'the silent server accepted the connection');
    });

    it('reports an HTTP server that does not speak MCP as not an MCP server', async () => {
      const result = await createAndTest(platform, `http://127.0.0.3:${htmlPeer.port}/mcp`, 'html');
      assert.equal(result.status, 'error');
      assert.match(result.message, /^not an MCP server: unexpected content type text\/html/);
    });
  });
});
