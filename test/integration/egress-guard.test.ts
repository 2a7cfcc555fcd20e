import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { request } from 'undici';
import { EgressBlockedError, EgressTimeoutError } from '../../lib/outbound/egress/egress-errors';
import { createEgressGuard, redirectRefusal, type EgressGuard } from '../../lib/outbound/egress/egress-guard';
import type { HostLookup } from '../../lib/outbound/egress/guarded-connector';

// Network rule: these tests only ever connect to loopback; every other address must be refused before dialling.

interface CountingListener {
  readonly port: number;
  connections: number;
  close(): Promise<void>;
}

async function startListener(host: string, handler: http.RequestListener): Promise<CountingListener> {
  const server = http.createServer(handler);
  const listener = { port: 0, connections: 0, close: (): Promise<void> => closeServer(server) };
  server.on('connection', () => listener.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  listener.port = (server.address() as net.AddressInfo).port;
  return listener;
}

async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function fixedLookup(table: Record<string, string[]>): HostLookup {
  return async (hostname: string): Promise<LookupAddress[]> =>
    (table[hostname] ?? []).map((address) => ({ address, family: net.isIP(address) }));
}

function assertBlocked(error: unknown, pattern: RegExp): true {
  assert.ok(error instanceof EgressBlockedError, `expected EgressBlockedError, got ${String(error)}`);
  assert.equal(error.code, 'egress_blocked');
  assert.match(error.message, pattern);
  return true;
}

describe('egress guard', () => {
  let v4: CountingListener;
  let v6: CountingListener;
  let target: CountingListener;
  let toMetadata: CountingListener;
  let toTarget: CountingListener;
  let guard: EgressGuard | undefined;

  const use = (created: EgressGuard): EgressGuard => (guard = created);

  before(async () => {
    v4 = await startListener('127.0.0.1', (_req, res) => res.end('ok'));
    v6 = await startListener('::1', (_req, res) => res.end('ok6'));
    target = await startListener('127.0.0.1', (_req, res) => res.end('target'));
    toMetadata = await startListener('127.0.0.1', (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    toTarget = await startListener('127.0.0.1', (_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/` }).end();
    });
  });

  beforeEach(() => {
    for (const listener of [v4, v6, target, toMetadata, toTarget]) listener.connections = 0;
  });

  afterEach(async () => {
    await guard?.close();
    guard = undefined;
  });

  after(async () => {
    await Promise.all([v4, v6, target, toMetadata, toTarget].map((listener) => listener.close()));
  });

  describe('with an empty allowlist', () => {
    // [url built from the loopback listener ports, expected message]; private targets have no listener to count.
    const refusedUrls: ReadonlyArray<[(v4Port: number, v6Port: number) => string, RegExp]> = [
      [(p) => `http://127.0.0.1:${p}/`, /^blocked: 127\.0\.0\.1 is a loopback address$/],
      [(p) => `http://localhost:${p}/`, /^blocked: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/],
      [(p) => `http://0.0.0.0:${p}/`, /^blocked: 0\.0\.0\.0 is an unspecified address$/],
      [(_p, p6) => `http://[::1]:${p6}/`, /^blocked: ::1 is a loopback address$/],
      [(p) => `http://[::ffff:127.0.0.1]:${p}/`, /^blocked: ::ffff:7f00:1 is a loopback address$/],
      [(p) => `http://2130706433:${p}/`, /^blocked: 127\.0\.0\.1 is a loopback address$/],
      [(p) => `http://0x7f.1:${p}/`, /^blocked: 127\.0\.0\.1 is a loopback address$/],
      [(p) => `http://0177.0.0.1:${p}/`, /^blocked: 127\.0\.0\.1 is a loopback address$/],
      [(p) => `http://127.1:${p}/`, /^blocked: 127\.0\.0\.1 is a loopback address$/],
      [() => 'http://10.0.0.1/', /^blocked: 10\.0\.0\.1 is a private address$/],
      [() => 'http://172.16.0.1/', /^blocked: 172\.16\.0\.1 is a private address$/],
      [() => 'http://172.31.255.254/', /^blocked: 172\.31\.255\.254 is a private address$/],
      [() => 'http://192.168.1.1/', /^blocked: 192\.168\.1\.1 is a private address$/],
      [() => 'http://100.64.0.1/', /^blocked: 100\.64\.0\.1 is a carrier-grade NAT address$/],
      [() => 'http://169.254.169.254/latest/meta-data/', /^blocked: 169\.254\.169\.254 is a link-local address$/],
      [() => 'http://metadata.google.internal/computeMetadata/v1/', /^blocked: metadata\.google\.internal is a cloud/],
      [() => 'http://[fc00::1]/', /^blocked: fc00::1 is a unique-local address$/],
      [() => 'http://[fd00:ec2::254]/', /^blocked: fd00:ec2::254 is a unique-local address$/],
      [() => 'http://[fe80::1]/', /^blocked: fe80::1 is a link-local address$/],
    ];

    for (const [buildUrl, pattern] of refusedUrls) {
      const shown = buildUrl(0, 0).replace(':0/', '/');
      it(`refuses ${shown} before connecting`, async () => {
        const egress = use(createEgressGuard({ allowlist: '' }));
        const url = buildUrl(v4.port, v6.port);
        // The pre-flight verdict must refuse first, so a policy bug fails here rather than dialling a real network.
        assert.equal((await egress.check(url)).allowed, false);
        await assert.rejects(egress.fetch(url), (error) => assertBlocked(error, pattern));
        assert.equal(v4.connections, 0);
        assert.equal(v6.connections, 0);
      });
    }

    it('refuses loopback at connect time when the dispatcher is used without the pre-flight check', async () => {
      const egress = use(createEgressGuard({ allowlist: '' }));
      for (const url of [`http://127.0.0.1:${v4.port}/`, `http://localhost:${v4.port}/`, `http://[::1]:${v6.port}/`]) {
        const refused = request(url, { dispatcher: egress.dispatcher });
        await assert.rejects(refused, (error) => assertBlocked(error, /loopback/));
      }
      assert.equal(v4.connections, 0);
      assert.equal(v6.connections, 0);
    });

    it('refuses a name that an injected resolver maps to loopback', async () => {
      const egress = use(createEgressGuard({ allowlist: '', lookup: fixedLookup({ localtest: ['127.0.0.1'] }) }));
      const url = `http://localtest:${v4.port}/`;
      assert.deepEqual(await egress.check(url), {
        allowed: false,
        reason: 'localtest resolves to 127.0.0.1, a loopback address',
      });
      await assert.rejects(egress.fetch(url), (error) => assertBlocked(error, /localtest resolves to 127\.0\.0\.1/));
      assert.equal(v4.connections, 0);
    });

    it('refuses a name when one of several resolved addresses is loopback', async () => {
      const lookup = fixedLookup({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] });
      const egress = use(createEgressGuard({ allowlist: '', lookup }));
      const refused = egress.fetch(`http://mixed.test:${v4.port}/`);
      await assert.rejects(refused, (error) => assertBlocked(error, /mixed\.test resolves to 127\.0\.0\.1/));
      assert.equal(v4.connections, 0);
    });

    it('re-checks at connect time, so a name rebound to loopback after the check is refused', async () => {
      let calls = 0;
      const lookup: HostLookup = async () => [{ address: ++calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      const egress = use(createEgressGuard({ allowlist: '', lookup }));
      const url = `http://rebind.test:${v4.port}/`;
      const verdict = await egress.check(url);
      assert.deepEqual(verdict, { allowed: true, hostname: 'rebind.test', addresses: ['93.184.216.34'] });
      await assert.rejects(egress.fetch(url), (error) => assertBlocked(error, /rebind\.test resolves to 127\.0\.0\.1/));
      assert.equal(calls, 2);
      assert.equal(v4.connections, 0);
    });

    it('judges a name resolving to public addresses as allowed without fetching it', async () => {
      const lookup = fixedLookup({ 'public.test': ['93.184.216.34', '2606:4700::1111'] });
      const egress = use(createEgressGuard({ allowlist: '', lookup }));
      assert.deepEqual(await egress.check('https://public.test/mcp'), {
        allowed: true,
        hostname: 'public.test',
        addresses: ['93.184.216.34', '2606:4700::1111'],
      });
    });

    it('refuses schemes other than http and https', async () => {
      const egress = use(createEgressGuard({ allowlist: '' }));
      const refused = egress.fetch('file:///etc/passwd');
      await assert.rejects(refused, (error) => assertBlocked(error, /scheme file: is not allowed/));
    });
  });

  describe('with an allowlist', () => {
    it('reaches a loopback listener allowlisted by IP', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1' }));
      const response = await egress.fetch(`http://127.0.0.1:${v4.port}/`);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), 'ok');
      assert.equal(v4.connections, 1);
    });

    it('reaches loopback listeners allowlisted by CIDR and by IPv6 address', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.0/8, ::1' }));
      assert.equal(await (await egress.fetch(`http://127.0.0.1:${v4.port}/`)).text(), 'ok');
      assert.equal(await (await egress.fetch(`http://[::1]:${v6.port}/`)).text(), 'ok6');
      assert.equal(v4.connections, 1);
      assert.equal(v6.connections, 1);
    });

    it('reaches a host allowlisted by name whatever it resolves to', async () => {
      const lookup = fixedLookup({ 'mcp.local': ['127.0.0.1'] });
      const egress = use(createEgressGuard({ allowlist: 'mcp.local', lookup }));
      assert.equal(await (await egress.fetch(`http://mcp.local:${v4.port}/`)).text(), 'ok');
      assert.equal(v4.connections, 1);
    });

    it('still refuses loopback addresses outside the allowlist', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1' }));
      const refused = egress.fetch(`http://[::1]:${v6.port}/`);
      await assert.rejects(refused, (error) => assertBlocked(error, /::1 is a loopback/));
      assert.equal(v6.connections, 0);
    });

    it('returns a redirect to the metadata address as-is instead of following it', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1' }));
      const response = await egress.fetch(`http://127.0.0.1:${toMetadata.port}/`);
      assert.equal(response.status, 302);
      assert.equal(response.headers.get('location'), 'http://169.254.169.254/latest/meta-data/');
      assert.equal(redirectRefusal(response), 'redirect not followed (HTTP 302)');
      assert.equal(toMetadata.connections, 1);
    });

    it('does not follow a redirect even to an allowlisted listener', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1' }));
      const response = await egress.fetch(`http://127.0.0.1:${toTarget.port}/`, { method: 'POST', body: '{}' });
      assert.equal(response.status, 307);
      assert.equal(redirectRefusal(response), 'redirect not followed (HTTP 307)');
      assert.equal(target.connections, 0);
    });

    it('reports no redirect refusal for a successful response', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1' }));
      assert.equal(redirectRefusal(await egress.fetch(`http://127.0.0.1:${v4.port}/`)), undefined);
    });

    it('refuses a URL with userinfo before connecting and does not echo the credentials', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1' }));
      await assert.rejects(egress.fetch(`http://user:s3cret@127.0.0.1:${v4.port}/`), (error) => {
        assertBlocked(error, /^blocked: URLs with credentials \(userinfo\) are not allowed$/);
        return !(error as Error).message.includes('s3cret');
      });
      assert.equal(v4.connections, 0);
    });
  });

  describe('connect timeout', () => {
    const held: net.Socket[] = [];
    let silent: net.Server;

    before(async () => {
      silent = net.createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });

    after(async () => {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it('fails with a recognisable timeout when the TLS handshake never completes', async () => {
      const egress = use(createEgressGuard({ allowlist: '127.0.0.1', connectTimeoutMs: 200 }));
      const port = (silent.address() as net.AddressInfo).port;
      await assert.rejects(egress.fetch(`https://127.0.0.1:${port}/`), (error) => {
        assert.ok(error instanceof EgressTimeoutError);
        assert.equal(error.code, 'egress_timeout');
        assert.equal(error.message, 'timeout after 200 ms');
        return true;
      });
    });
  });
});
