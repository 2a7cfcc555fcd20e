import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deriveKey, loadMasterKey } from '../../lib/master-key';
import { WaitAborted, waitFor } from '../../lib/embedded/process-utils';
import { createDataConverter } from '../../lib/temporal/data-converter';
import { connectTemporal } from '../../lib/temporal/temporal-client';
import { pingWorkflow } from '../../workflows/ping.workflow';
import { alive, descendants } from '../helpers/process-tree';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startAssay(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ['bin/assay.js', 'start'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function untilBanner(started: Started): Promise<void> {
  await waitFor(
    'assay start banner',
    async () => {
      if (started.child.exitCode !== null) throw new WaitAborted(`assay start exited: ${started.output()}`);
      return started.output().includes('Press Ctrl-C to stop.');
    },
    120_000,
  ).catch((error: Error) => {
    started.child.kill('SIGKILL');
    throw new Error(`${error.message}; output so far:\n${started.output().slice(-4000)}`);
  });
}

async function stopWithCtrlC(started: Started): Promise<void> {
  const tree = descendants(started.child.pid as number);
  assert.ok(tree.length >= 2, 'postgres and temporal run as children');
  started.child.kill('SIGINT');
  assert.equal(await started.exited, 0);
  await waitFor('children gone', async () => tree.every((pid) => !alive(pid)), 20_000);
}

async function stablePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!ports.has(port) && (await canListen(port))) ports.add(port);
  }
  return [...ports];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('assay start (the whole platform as a child process)', function () {
  this.timeout(300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-start-'));
  fs.chmodSync(dataDir, 0o755);
  let env: NodeJS.ProcessEnv;
  let token: string;

  before(async () => {
    // Fixed for both starts, so taken below the kernel's ephemeral range, where no outgoing socket or
    // `listen(0)` of the services started in between can land on them.
    const [api, pg, temporal, ui, gateway] = await stablePorts(5);
    env = {
      ASSAY_DATA_DIR: dataDir,
      ASSAY_PORT: String(api),
      ASSAY_GATEWAY_PORT: String(gateway),
      PG_PORT: String(pg),
      TEMPORAL_PORT: String(temporal),
      TEMPORAL_UI_PORT: String(ui),
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      VAULT_ADDR: '',
    };
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('serves a ready api, a working token, the Temporal UI and a worker, then stops every child on Ctrl-C', async () => {
    const started = startAssay(env);
    await untilBanner(started);
    const api = `http://127.0.0.1:${env.ASSAY_PORT}`;
    token = /Token\s+(assay_[\w-]+)/.exec(started.output())?.[1] ?? '';
    assert.match(token, /^assay_/);
    assert.ok(started.output().includes(`${api}/docs`));
    // The MCP gateway runs in-process: its URL is in the banner, and it asks for a token.
    const gatewayUrl = `http://127.0.0.1:${env.ASSAY_GATEWAY_PORT}/mcp/agents/{agent}`;
    assert.ok(started.output().includes(gatewayUrl), started.output());
    const gatewayAnswer = await fetch(gatewayUrl.replace('{agent}', 'any'), { method: 'POST' });
    assert.equal(gatewayAnswer.status, 401);
    // The builder's connection snippets name that gateway, not the api's port.
    const { base_url } = (await (await fetch(`${api}/builder/gateway.json`)).json()) as { base_url: string };
    assert.equal(base_url, `http://127.0.0.1:${env.ASSAY_GATEWAY_PORT}`, 'the gateway the snippets name');
    const snippetTarget = await fetch(`${base_url}/mcp/agents/x`, { method: 'POST' });
    assert.equal(snippetTarget.status, 401, 'the gateway answers there, asking for a token');

    assert.equal((await fetch(`${api}/readyz`)).status, 200);
    assert.equal((await fetch(`${api}/api/ai-agents`, { headers: { Authorization: `Bearer ${token}` } })).status, 200);
    assert.equal(
      (await fetch(`${api}/api/ai-agents`, { headers: { Authorization: 'Bearer assay_wrong' } })).status,
      401,
    );
    const uiOrigin = `http://127.0.0.1:${env.TEMPORAL_UI_PORT}`;
    const ui = await fetch(`${uiOrigin}/`);
    assert.equal(ui.status, 200);
    assert.match(await ui.text(), /<html/i);
    const settings = (await (await fetch(`${uiOrigin}/api/v1/settings`)).json()) as { Codec: { Endpoint: string } };
    assert.equal(settings.Codec.Endpoint, `${api}/codec`, 'the Web UI decodes payloads through the api');
    const preflight = await fetch(`${api}/codec/decode`, { method: 'OPTIONS', headers: { Origin: uiOrigin } });
    assert.equal(preflight.headers.get('access-control-allow-origin'), uiOrigin);
    // The embedded UI sends no token: it may decode only because this api is loopback-only, and the banner says so.
    assert.match(started.output(), /Codec\s+no token needed by the embedded Temporal UI .*ASSAY_HOST=127\.0\.0\.1/);
    const bootstrapOwner = `Bearer ${token}`;
    for (const [authorization, status] of [
      [undefined, 200],
      [bootstrapOwner, 200],
      ['Bearer assay_wrong', 401],
    ] as const) {
      const decoded = await fetch(`${api}/codec/decode`, {
        method: 'POST',
        headers: {
          Origin: uiOrigin,
          'Content-Type': 'application/json',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: JSON.stringify({ payloads: [] }),
      });
      assert.equal(decoded.status, status, authorization ? 'a token, when sent, is checked' : 'no token');
    }

    const key = deriveKey(loadMasterKey(undefined, dataDir), 'temporal-payload');
    const temporal = await connectTemporal(`127.0.0.1:${env.TEMPORAL_PORT}`, 'default', createDataConverter(key));
    try {
      const pong = await temporal.client.workflow.execute(pingWorkflow, {
        taskQueue: 'assay',
        workflowId: `ping:start-${Date.now()}`,
        args: [{ message: 'marco' }],
      });
      assert.equal(pong.message, 'marco');
      assert.equal(pong.worker_pid, started.child.pid);
    } finally {
      await temporal.close();
    }
    await stopWithCtrlC(started);
  });

  it('reuses the data on a second start: the first token still works and no new token is printed', async () => {
    const started = startAssay(env);
    await untilBanner(started);
    assert.doesNotMatch(started.output(), /Token\s+assay_/);
    const res = await fetch(`http://127.0.0.1:${env.ASSAY_PORT}/api/ai-agents`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    // `assay token create` without DATABASE_URL reaches the embedded cluster with the password from the data dir.
    const created = spawnSync(process.execPath, ['bin/assay.js', 'token', 'create', '--email', 'cli@example.test'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(created.status, 0, created.stderr);
    const { token: second } = JSON.parse(created.stdout) as { token: string };
    const listed = await fetch(`http://127.0.0.1:${env.ASSAY_PORT}/api/ai-agents`, {
      headers: { Authorization: `Bearer ${second}` },
    });
    assert.equal(listed.status, 200);
    await stopWithCtrlC(started);
  });
});
