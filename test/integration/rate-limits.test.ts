import assert from 'node:assert/strict';
import request from 'supertest';
import { listen } from '../../cli/http-server';
import { runAssay } from '../helpers/assay-cli';
import { forwardingProxy } from '../helpers/forwarding-proxy';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { parsePrometheusText, sumOf } from '../helpers/prometheus-text';
import { createTenant, type Tenant } from '../helpers/tenants';

const TOKEN_QUOTA = 60;
const WORKSPACE_QUOTA = 90;
const METRICS_TOKEN = 'rate-limit-metrics-token-0001';

describe('request rate limits per token and per workspace', function () {
  this.timeout(180_000);
  let platform: TestPlatform;

  before(async () => {
    platform = await createTestPlatform(await harness(), {
      env: {
        RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_QUOTA),
        RATE_LIMIT_WORKSPACE_PER_MINUTE: String(WORKSPACE_QUOTA),
        METRICS_TOKEN,
      },
    });
  });
  after(async () => {
    await platform?.close();
  });

  const get = (tenant: Tenant): Promise<request.Response> =>
    request(platform.app).get('/api/ai-agents').set(tenant.auth);

  /** Sends GETs as each tenant in turn until one is refused; fails if none is within `max` requests. */
  async function untilRefused(tenants: Tenant[], max: number): Promise<{ res: request.Response; served: number }> {
    for (let served = 0; served < max; served++) {
      const res = await get(tenants[served % tenants.length]);
      if (res.status === 429) return { res, served };
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.fail(`no request of ${max} was refused`);
  }

  async function refusals(scope: string): Promise<number> {
    const res = await request(platform.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    assert.equal(res.status, 200);
    return sumOf(parsePrometheusText(res.text), 'assay_http_rate_limited_total', { scope });
  }

  it('refuses a token over its quota 429 rate_limited with Retry-After and RateLimit headers, counted; others go on', async () => {
    const [runaway, bystander] = [await createTenant(platform.runtime.db), await createTenant(platform.runtime.db)];
    const counted = await refusals('token');
    const first = await get(runaway);
    assert.equal(first.status, 200);
    assert.equal(
      first.headers['ratelimit-policy'],
      `"token";q=${TOKEN_QUOTA};w=60, "workspace";q=${WORKSPACE_QUOTA};w=60`,
    );
    assert.match(first.headers.ratelimit, new RegExp(`^"token";r=${TOKEN_QUOTA - 1};t=1, "workspace";r=\\d+;t=\\d+$`));

    const { res, served } = await untilRefused([runaway], TOKEN_QUOTA * 2);
    assert.ok(served >= TOKEN_QUOTA - 2, `refused after ${served + 1} requests`);
    assert.equal(res.body.error.code, 'rate_limited');
    assert.equal(res.body.error.details.scope, 'token');
    assert.match(res.body.error.message, /too many requests for this token/);
    assert.equal(res.headers['retry-after'], '1', 'a quota of one a second is back within a second');
    assert.match(res.headers.ratelimit, /^"token";r=0;t=\d+, /);
    assert.equal(await refusals('token'), counted + 1);

    assert.equal((await get(bystander)).status, 200, 'another token of another workspace is served');
  });

  it('refuses every token of a workspace over the workspace quota, and writes nothing for a refused POST', async () => {
    const first = await createTenant(platform.runtime.db);
    const { token: second } = await createTenant(platform.runtime.db);
    const sameWorkspace = await request(platform.app)
      .post('/api/tokens')
      .set(first.auth)
      .send({ name: 'second' })
      .expect(201);
    const others = [{ ...first, auth: { Authorization: `Bearer ${sameWorkspace.body.data.token as string}` } }, first];
    const { res, served } = await untilRefused(others, WORKSPACE_QUOTA * 2);
    assert.ok(served >= WORKSPACE_QUOTA - 4 && served < TOKEN_QUOTA * 2, `refused after ${served + 1} requests`);
    assert.equal(res.body.error.details.scope, 'workspace');
    assert.ok(Number(res.headers['retry-after']) >= 1);

    const audits = await platform.runtime.db.selectFrom('audit_events').select((eb) => eb.fn.countAll().as('n'));
    const auditsBefore = await audits.executeTakeFirstOrThrow();
    const post = await request(platform.app)
      .post('/api/ai-agents')
      .set(first.auth)
      .send({ name: 'refused-agent', model: 'gpt-4o', instructions: 'x' });
    assert.equal(post.status, 429, JSON.stringify(post.body));
    const agents = await platform.runtime.db
      .selectFrom('agents')
      .where('name', '=', 'refused-agent')
      .select('id')
      .execute();
    assert.deepEqual(agents, []);
    assert.deepEqual(await audits.executeTakeFirstOrThrow(), auditsBefore, 'a refused request writes no audit entry');
    assert.equal(
      (
        await request(platform.app)
          .get('/api/ai-agents')
          .set({ Authorization: `Bearer ${second}` })
      ).status,
      200,
    );
  });

  it('documents 429 with Retry-After on every operation of the API', async () => {
    const { paths } = (await request(platform.app).get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    const api = Object.entries(paths).filter(([path]) => path.startsWith('/api/'));
    assert.ok(api.length >= 40, `${api.length} paths`);
    for (const [path, operations] of api)
      for (const [method, op] of Object.entries(operations))
        assert.ok(op.responses['429']?.headers && 'Retry-After' in op.responses['429'].headers, `${method} ${path}`);
  });

  it("the CLI waits out a 429's Retry-After and tries again", async () => {
    const tenant = await createTenant(platform.runtime.db);
    const served = await listen(platform.app, '127.0.0.1', 0);
    // The bucket is emptied when the command's first request arrives, not before: spawning the CLI takes seconds.
    const port = (served.server.address() as { port: number }).port;
    const proxy = await forwardingProxy(`http://127.0.0.1:${port}`, {
      beforeFirst: async () => void (await untilRefused([tenant], TOKEN_QUOTA * 2)),
    });
    try {
      const result = await runAssay(['member', 'list', '--json'], {
        ASSAY_URL: proxy.url,
        ASSAY_TOKEN: tenant.token,
        ASSAY_WORKSPACE: '',
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /too many requests for this token; retry in 1 s; try 2 of 5 in 1000 ms/);
      assert.deepEqual(
        proxy.seen.slice(0, 2).map((r) => r.status),
        [429, 200],
      );
      assert.equal(JSON.parse(result.stdout).length, 1, 'the one member is listed');
    } finally {
      await proxy.close();
      await served.close();
    }
  });
});
