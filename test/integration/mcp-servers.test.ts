import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import request from 'supertest';
import { postgresBinDir } from '../../lib/embedded/postgres-cluster';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness, type Harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { listToolsWithSdk, startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post' | 'patch' | 'delete';

// A link's gateway policy when none is given: every tool, under `<server name>__`, no overrides.
const DEFAULT_GATEWAY_POLICY = { tools: ['*'], tool_prefix: null, tool_overrides: {} };
describe('MCP servers: the recommended order against a real server-everything', () => {
  const secret = `everything-token-${crypto.randomBytes(16).toString('hex')}`;
  const rotated = `rotated-token-${crypto.randomBytes(16).toString('hex')}`;
  const responses: string[] = [];
  let h: Harness;
  let platform: TestPlatform;
  let everything: EverythingServer;
  let owner: Tenant;
  let other: Tenant;
  let serverId: string;
  let agentId: string;
  let flowId: string;
  let entryId: string;
  let runId: string;

  const call = async (tenant: Tenant, method: Method, path: string, body?: object): Promise<request.Response> => {
    const res = await request(platform.app)[method](path).set(tenant.auth).send(body);
    responses.push(res.text);
    return res;
  };

  const readOpenBao = async (workspaceId: string, credentialId: string): Promise<string | null> => {
    const res = await fetch(`${h.openbao.address}/v1/secret/data/assay/${workspaceId}/${credentialId}`, {
      headers: { 'X-Vault-Token': h.openbao.token },
    });
    if (res.status === 404) return null;
    return ((await res.json()) as { data: { data: { value: string } } }).data.data.value;
  };

  const waitForRun = (tenant: Tenant, id: string): Promise<request.Response> =>
    waitForFlowRunEnd((path) => call(tenant, 'get', path), id);

  before(async () => {
    h = await harness();
    everything = await startEverythingHttp();
    platform = await createTestPlatform(h, { vault: 'openbao', env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    owner = await createTenant(h.db, 'owner');
    other = await createTenant(h.db, 'owner');
  });
  after(async () => {
    await platform?.close();
    await everything?.stop();
  });

  it('lists the seven curated kinds with the spec categories, transports and secret patterns', async () => {
    const res = await call(owner, 'get', '/api/v1/mcp-catalog');
    assert.equal(res.status, 200);
    const byCategory = new Map(
      (res.body as Array<{ category: string; transport: string; required_secrets: string[]; workspace_id: null }>)
        .filter((e) => e.workspace_id === null)
        .map((e) => [e.category, e]),
    );
    const expected: Array<[string, string, RegExp[]]> = [
      ['Pagamentos', 'http', [/^[A-Z]+_API_KEY$/]],
      ['Voz', 'stdio_curated', [/^[A-Z]+_API_KEY$/]],
      ['Web', 'stdio_curated', [/^[A-Z]+_API_KEY$/]],
      ['', 'http', [/^[A-Z]+_API_KEY$/]],
      ['Documentos', 'stdio_curated', [/^[A-Z]+_API_TOKEN$/]],
      ['Produtividade', 'http', [/^[A-Z]+_CLIENT_ID$/, /^[A-Z]+_CLIENT_SECRET$/, /^[A-Z]+_REFRESH_TOKEN$/]],
      ['Jurídico', 'http', [/^[A-Z]+_API_KEY$/]],
    ];
    for (const [category, transport, secrets] of expected) {
      const entry = byCategory.get(category);
      assert.ok(entry, `a curated entry with category "${category}"`);
      assert.equal(entry.transport, transport, category);
      assert.equal(entry.required_secrets.length, secrets.length, category);
      secrets.forEach((pattern, i) => assert.match(entry.required_secrets[i], pattern));
    }
  });

  it('adds a workspace http entry for admins and refuses stdio_curated entries from the API', async () => {
    const stdio = await call(owner, 'post', '/api/v1/mcp-catalog', {
      name: 'sneaky',
      label: 'Sneaky',
      image: 'https://example.com/x.png',
      transport: 'stdio_curated',
    });
    assert.equal(stdio.status, 422);
    assert.match(stdio.body.error.message, /^transport: /);
    const res = await call(owner, 'post', '/api/v1/mcp-catalog', {
      name: 'everything',
      label: 'Everything',
      category: 'Test',
      image: 'https://example.com/everything.png',
      transport: 'http',
      required_secrets: ['EVERYTHING_TOKEN'],
      config_schema: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          headers: { type: 'object', default: { Authorization: 'Bearer $EVERYTHING_TOKEN' } },
        },
        required: ['url'],
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.workspace_id, owner.workspaceId);
    entryId = res.body.id;
    const builder = await createTenant(h.db, 'builder');
    assert.equal(
      (
        await call(builder, 'post', '/api/v1/mcp-catalog', {
          name: 'x',
          label: 'X',
          image: 'https://example.com/x.png',
          transport: 'http',
        })
      ).status,
      403,
    );
  });

  it('creates the server exactly as the spec answers, secret in the vault under mcp-server:<name>', async () => {
    const res = await call(owner, 'post', '/api/v1/mcp-servers', {
      catalog_id: entryId,
      name: 'everything',
      transport: 'http',
      config: { url: everything.url },
      secret_value: secret,
    });
    assert.equal(res.status, 201, res.text);
    serverId = res.body.id;
    assert.deepEqual(res.body, {
      id: serverId,
      name: 'everything',
      status: 'pending',
      credential_id: 'mcp-server:everything',
      transport: 'http',
    });
    assert.equal(
      await readOpenBao(owner.workspaceId, 'mcp-server:everything'),
      JSON.stringify({ EVERYTHING_TOKEN: secret }),
    );
    const got = await call(owner, 'get', `/api/v1/mcp-servers/${serverId}`);
    assert.deepEqual(got.body.config, { url: everything.url, headers: { Authorization: 'Bearer $EVERYTHING_TOKEN' } });
    assert.equal(
      (
        await call(owner, 'post', '/api/v1/mcp-servers', {
          catalog_id: entryId,
          name: 'everything',
          transport: 'http',
          config: { url: everything.url },
          secret_value: 'x',
        })
      ).status,
      409,
    );
  });

  it('rejects bad definitions with 422 naming the field', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ name: 'Not A Slug', transport: 'http', config: { url: everything.url } }, /^name: /],
      [
        {
          name: 'lit',
          transport: 'http',
          config: { url: everything.url, headers: { Authorization: 'Bearer sk_live_4eC39HqLyjWDarjtT1zdp7dc' } },
        },
        /^config\.headers\.Authorization: is a credential header/,
      ],
      [
        { name: 'lit2', transport: 'http', config: { url: everything.url, headers: { 'X-Api-Key': 'abc123' } } },
        /^config\.headers\.X-Api-Key: /,
      ],
      [
        {
          name: 'unknown-ref',
          transport: 'http',
          config: { url: everything.url, headers: { Authorization: 'Bearer $OTHER_TOKEN' } },
          secret_value: 'x',
        },
        /^config\.headers\.Authorization: references undeclared secret \$OTHER_TOKEN/,
      ],
      [{ name: 'no-url', transport: 'http', config: {} }, /^config\.url: is required/],
      [{ name: 'ftp', transport: 'http', config: { url: 'ftp://example.com/' } }, /^config\.url: /],
      [
        { name: 'pw', transport: 'http', config: { url: 'https://user:hunter2@example.com/mcp' } },
        /^config\.url: must not contain a password/,
      ],
      [{ name: 'stdio-custom', transport: 'stdio_curated' }, /^transport: /],
      [{ catalog_id: entryId, name: 'wrong-transport', transport: 'stdio_curated' }, /^transport: must be http/],
      [
        { catalog_id: entryId, name: 'no-secret', transport: 'http', config: { url: everything.url } },
        /^secret_value: is required/,
      ],
      [
        { catalog_id: crypto.randomUUID(), name: 'ghost', transport: 'http', config: { url: everything.url } },
        /^catalog_id: unknown catalog entry/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await call(owner, 'post', '/api/v1/mcp-servers', body);
      assert.equal(res.status, 422, `${JSON.stringify(body)} → ${res.text}`);
      assert.match(res.body.error.message, message);
    }
  });

  it('tests the connection on a worker without making the server connected', async () => {
    const res = await call(owner, 'post', `/api/v1/mcp-servers/${serverId}/test`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'connected', res.text);
    assert.ok(Number.isInteger(res.body.latency_ms) && res.body.latency_ms >= 0);
    const got = await call(owner, 'get', `/api/v1/mcp-servers/${serverId}`);
    assert.equal(got.body.status, 'pending');
    assert.equal(got.body.last_test.status, 'connected');
  });

  it("refreshes tools: tools_count equals what the SDK's own client lists, and GET tools returns them", async () => {
    const res = await call(owner, 'post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.equal(res.status, 200, res.text);
    const reference = await listToolsWithSdk(everything.url);
    assert.ok(reference.includes('get-sum'));
    assert.equal(res.body.status, 'connected');
    assert.equal(res.body.tools_count, reference.length);
    assert.ok(!Number.isNaN(Date.parse(res.body.synced_at)));
    assert.deepEqual(res.body.changes.added, reference);
    const tools = await call(owner, 'get', `/api/v1/mcp-servers/${serverId}/tools`);
    assert.deepEqual(tools.body.map((t: { name: string }) => t.name).sort(), reference);
    const sum = tools.body.find((t: { name: string }) => t.name === 'get-sum');
    assert.deepEqual(sum.parameters, [
      { name: 'a', type: 'number', description: 'First number', required: true },
      { name: 'b', type: 'number', description: 'Second number', required: true },
    ]);
    assert.equal(sum.input_schema.type, 'object');
    assert.equal((await call(owner, 'get', `/api/v1/mcp-servers/${serverId}`)).body.status, 'connected');
  });

  it('links the server to an agent, updates enabled on a second call, lists and unlinks', async () => {
    const agent = await call(owner, 'post', '/api/ai-agents', {
      name: 'mcp-agent',
      model: 'gpt-4o',
      instructions: 'x',
    });
    agentId = agent.body.data.id;
    const linked = await call(owner, 'post', `/api/v1/agents/${agentId}/mcp-servers`, {
      mcp_server_id: serverId,
      enabled: true,
    });
    assert.equal(linked.status, 200);
    assert.deepEqual(linked.body, {
      agent_id: agentId,
      mcp_server_id: serverId,
      enabled: true,
      sandbox_real_calls: false,
      record_cassette: false,
      ...DEFAULT_GATEWAY_POLICY,
    });
    const disabled = await call(owner, 'post', `/api/v1/agents/mcp-agent/mcp-servers`, {
      mcp_server_id: serverId,
      enabled: false,
    });
    assert.deepEqual(disabled.body, {
      agent_id: agentId,
      mcp_server_id: serverId,
      enabled: false,
      sandbox_real_calls: false,
      record_cassette: false,
      ...DEFAULT_GATEWAY_POLICY,
    });
    assert.deepEqual((await call(owner, 'get', `/api/v1/agents/${agentId}/mcp-servers`)).body, [
      {
        agent_id: agentId,
        mcp_server_id: serverId,
        enabled: false,
        sandbox_real_calls: false,
        record_cassette: false,
        ...DEFAULT_GATEWAY_POLICY,
      },
    ]);
    await call(owner, 'post', `/api/v1/agents/${agentId}/mcp-servers`, { mcp_server_id: serverId, enabled: true });
  });

  it('rejects flow nodes that do not match the stored descriptors', async () => {
    const node = (extra: object) => ({
      id: 'n1',
      kind: 'mcp.call_tool',
      mcp_server_id: serverId,
      tool_name: 'get-sum',
      parameters: { a: 1, b: 2 },
      ...extra,
    });
    const cases: Array<[object[], RegExp]> = [
      [[node({ tool_name: 'nope' })], /^nodes\.0\.tool_name: nope is not a stored tool/],
      [[node({ parameters: { a: 1, b: 2, c: 3 } })], /^nodes\.0\.parameters\.c: is not a parameter of get-sum/],
      [[node({ parameters: { a: 1 } })], /^nodes\.0\.parameters\.b: is required/],
      [
        [node({ parameters: { a: '{{ nodes.n2.output }}', b: 1 } }), node({ id: 'n2' })],
        /^nodes\.0\.parameters\.a: .*not an earlier node/,
      ],
      [
        [node({ parameters: { a: '{{ process.env.HOME }}', b: 1 } })],
        /^nodes\.0\.parameters\.a: .*must start with variables or nodes/,
      ],
    ];
    for (const [nodes, message] of cases) {
      const res = await call(owner, 'post', '/api/v1/flows', { name: 'bad', nodes });
      assert.equal(res.status, 422, res.text);
      assert.match(res.body.error.message, message);
    }
  });

  it("runs a flow whose get-sum node renders {{ }} parameters and returns the server's real answer", async () => {
    const flow = await call(owner, 'post', '/api/v1/flows', {
      name: 'sum-and-echo',
      nodes: [
        {
          id: 'sum',
          kind: 'mcp.call_tool',
          mcp_server_id: serverId,
          tool_name: 'get-sum',
          parameters: { a: '{{ variables.a }}', b: '{{ variables.b }}' },
        },
        {
          id: 'say',
          kind: 'mcp.call_tool',
          mcp_server_id: serverId,
          tool_name: 'echo',
          parameters: { message: 'result: {{ nodes.sum.output.content[0].text }}' },
        },
      ],
    });
    assert.equal(flow.status, 201, flow.text);
    flowId = flow.body.id;
    const started = await call(owner, 'post', `/api/v1/flows/${flowId}/runs`, { variables: { a: 19, b: '23' } });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.status, 'queued');
    runId = started.body.id;
    const run = await waitForRun(owner, runId);
    assert.equal(run.body.status, 'completed', run.text);
    const [sum, say] = run.body.nodes;
    assert.deepEqual(sum.arguments, { a: 19, b: 23 });
    assert.equal(sum.output.content[0].text, 'The sum of 19 and 23 is 42.');
    assert.equal(say.output.content[0].text, 'Echo: result: The sum of 19 and 23 is 42.');
  });

  it('records a failed node when an expression names a missing variable', async () => {
    const started = await call(owner, 'post', `/api/v1/flows/${flowId}/runs`, { variables: { a: 1 } });
    const run = await waitForRun(owner, started.body.id);
    assert.equal(run.body.status, 'failed');
    assert.match(run.body.nodes[0].error, /variables\.b }} is not defined/);
    assert.equal(run.body.nodes[1].status, 'pending');
  });

  it('answers 404 to another workspace for the server, its test, refresh, tools, link and flow use; its catalog shows global entries only', async () => {
    const otherAgent = await call(other, 'post', '/api/ai-agents', {
      name: 'theirs',
      model: 'gpt-4o',
      instructions: 'x',
    });
    const checks: Array<[Method, string, object?]> = [
      ['get', `/api/v1/mcp-servers/${serverId}`],
      ['patch', `/api/v1/mcp-servers/${serverId}`, { secret_value: 'x' }],
      ['delete', `/api/v1/mcp-servers/${serverId}`],
      ['post', `/api/v1/mcp-servers/${serverId}/test`],
      ['post', `/api/v1/mcp-servers/${serverId}/refresh-tools`],
      ['get', `/api/v1/mcp-servers/${serverId}/tools`],
      ['post', `/api/v1/agents/${otherAgent.body.data.id}/mcp-servers`, { mcp_server_id: serverId, enabled: true }],
      ['post', `/api/v1/agents/${agentId}/mcp-servers`, { mcp_server_id: serverId, enabled: true }],
      [
        'post',
        '/api/v1/flows',
        {
          name: 'steal',
          nodes: [
            {
              id: 'n1',
              kind: 'mcp.call_tool',
              mcp_server_id: serverId,
              tool_name: 'get-sum',
              parameters: { a: 1, b: 2 },
            },
          ],
        },
      ],
      ['post', `/api/v1/flows/${flowId}/runs`, { variables: {} }],
      ['get', `/api/v1/flows/${flowId}`],
      ['get', `/api/v1/flow-runs/${runId}`],
    ];
    for (const [method, path, body] of checks) {
      const res = await call(other, method, path, body);
      assert.equal(res.status, 404, `${method} ${path} → ${res.status} ${res.text}`);
    }
    const catalog = await call(other, 'get', '/api/v1/mcp-catalog');
    assert.ok(catalog.body.length >= 7);
    assert.ok(
      catalog.body.every(
        (e: { workspace_id: string | null }) => e.workspace_id === null || e.workspace_id === other.workspaceId,
      ),
    );
    assert.ok((await call(owner, 'get', '/api/v1/mcp-catalog')).body.some((e: { id: string }) => e.id === entryId));
  });

  it('takes the secrets of a multi-secret entry (Google Workspace) as a JSON object string in secret_value', async () => {
    const catalog = (await call(owner, 'get', '/api/v1/mcp-catalog')).body as Array<{ id: string; name: string }>;
    const google = catalog.find((e) => e.name === 'google-workspace')!.id;
    const values = {
      GOOGLE_CLIENT_ID: `client-${crypto.randomBytes(8).toString('hex')}`,
      GOOGLE_CLIENT_SECRET: `gsecret-${crypto.randomBytes(16).toString('hex')}`,
      GOOGLE_REFRESH_TOKEN: `refresh-${crypto.randomBytes(16).toString('hex')}`,
    };
    const create = (name: string, secrets: object) =>
      call(owner, 'post', '/api/v1/mcp-servers', {
        catalog_id: google,
        name,
        transport: 'http',
        config: { url: 'https://workspace-mcp.example.com/mcp' },
        ...secrets,
      });
    const { GOOGLE_REFRESH_TOKEN: _left, ...two } = values;
    const bad: Array<[object, string, RegExp]> = [
      [{ secret_value: values.GOOGLE_CLIENT_SECRET }, 'secret_value', /is not valid JSON: google-workspace needs/],
      [{ secret_value: '["a"]' }, 'secret_value', /must be a JSON object string of GOOGLE_CLIENT_ID, /],
      [{ secret_value: JSON.stringify(two) }, 'secret_value.GOOGLE_REFRESH_TOKEN', /is required/],
      [
        { secret_value: JSON.stringify({ ...values, GOOGLE_EXTRA: 'x' }) },
        'secret_value.GOOGLE_EXTRA',
        /is not a secret of google-workspace/,
      ],
      [{ secret_value: JSON.stringify({ ...values, [values.GOOGLE_CLIENT_SECRET]: 'x' }) }, 'secret_value', /key/],
      [{ secret_value: JSON.stringify({ ...values, GOOGLE_CLIENT_ID: 7 }) }, 'secret_value.GOOGLE_CLIENT_ID', /string/],
      [{ secret_value: JSON.stringify(values), secrets: values }, 'secret_value', /not both/],
    ];
    for (const [body, field, message] of bad) {
      const res = await create('gw-bad', body);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.details[0].field, field, res.text);
      assert.match(res.body.error.message, message);
      for (const value of Object.values(values)) assert.equal(res.text.includes(value), false, 'no secret echoed');
    }
    assert.equal((await call(owner, 'get', '/api/v1/mcp-servers?limit=100')).text.includes('gw-bad'), false);

    const json = await create('gw-json', { secret_value: JSON.stringify(values) });
    assert.equal(json.status, 201, json.text);
    assert.equal(json.body.credential_id, 'mcp-server:gw-json');
    const object = await create('gw-object', { secrets: values });
    assert.equal(object.status, 201, object.text);
    for (const name of ['gw-json', 'gw-object'])
      assert.deepEqual(JSON.parse((await readOpenBao(owner.workspaceId, `mcp-server:${name}`))!), values, name);
    for (const res of [json, object]) await call(owner, 'delete', `/api/v1/mcp-servers/${res.body.id}`);
  });

  it('keeps the secret in OpenBao only: not in pg_dump, the sync history, the logs or any response', async () => {
    const { stdout } = await promisify(execFile)(
      `${postgresBinDir()}/pg_dump`,
      ['--no-owner', '--dbname', h.databaseUrl],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    assert.match(stdout, /COPY public\.mcp_servers /);
    assert.ok(stdout.includes('mcp-server:everything'));
    const handle = platform.runtime.temporal.client.workflow.getHandle(`mcp-tool-sync:${serverId}`);
    const history = await handle.fetchHistory();
    const raw = JSON.stringify(history);
    assert.ok((history.events?.length ?? 0) > 0);
    const payloads = (history.events ?? []).flatMap((e) => [
      ...(e.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
      ...(e.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
      ...(e.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
      ...(e.workflowExecutionCompletedEventAttributes?.result?.payloads ?? []),
    ]);
    assert.ok(payloads.length >= 4);
    const decoded = await platform.runtime.dataConverter.payloadCodecs![0].decode(payloads);
    const plain = decoded.map((p) => Buffer.from(p.data ?? []).toString()).join('\n');
    assert.match(plain, new RegExp(serverId));
    for (const text of [stdout, raw, plain, ...responses]) {
      assert.equal(text.includes(secret), false);
      assert.equal(text.includes(Buffer.from(secret).toString('base64')), false);
    }
    assertLogsClean(platform.logs, [secret]);
  });

  it('rotates the secret back to pending, then delete removes the secret and the links', async () => {
    const updated = await call(owner, 'patch', `/api/v1/mcp-servers/${serverId}`, {
      secret_value: rotated,
      config: { url: everything.url.replace('127.0.0.1', 'localhost') },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.status, 'pending');
    assert.equal(updated.text.includes(rotated), false);
    assert.equal(
      await readOpenBao(owner.workspaceId, 'mcp-server:everything'),
      JSON.stringify({ EVERYTHING_TOKEN: rotated }),
    );
    assert.equal((await call(owner, 'delete', `/api/v1/mcp-servers/${serverId}`)).status, 204);
    assert.equal(await readOpenBao(owner.workspaceId, 'mcp-server:everything'), null);
    assert.deepEqual((await call(owner, 'get', `/api/v1/agents/${agentId}/mcp-servers`)).body, []);
    assert.equal((await call(owner, 'get', `/api/v1/mcp-servers/${serverId}`)).status, 404);
  });
});
