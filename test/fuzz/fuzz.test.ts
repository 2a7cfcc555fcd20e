import assert from 'node:assert/strict';
import fc from 'fast-check';
import type net from 'node:net';
import request from 'supertest';
import { listen } from '../../cli/http-server';
import { createFuzzFixtures, stopWorkspaceWorkflows } from '../helpers/fuzz-fixtures';
import { databaseFingerprint, ResponseOracle, type OpenApiDocument } from '../helpers/fuzz-oracle';
import { FuzzRequest, requestFor, type FuzzContext } from '../helpers/fuzz-requests';
import { harness, ownDatabase } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

// Fixed by default so `npm test` is reproducible; FUZZ_SEED explores other inputs (and reproduces a failure).
const DEFAULT_SEED = 20261123;
const seed = process.env.FUZZ_SEED === undefined ? DEFAULT_SEED : Number(process.env.FUZZ_SEED);
/** Runs per operation (body routes carry most of the hostile input), times FUZZ_SCALE for a longer search. */
const scale = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS = { body: 40 * scale, query: 10 * scale, pathOnly: 4 * scale };
const MIN_REQUESTS = 1_000;
/** FUZZ_ONLY narrows the run to the operations whose `METHOD /path` contains it, to reproduce one failure. */
const only = process.env.FUZZ_ONLY ?? '';
const CODEC_ORIGIN = 'http://temporal-ui.fuzz.test';

// Every operation gets its own seed from the one printed, so adding a route does not reshuffle the others.
const seedFor = (key: string): number => {
  let hash = seed | 0;
  for (const char of key) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash | 0;
};

describe(`fuzz: generated hostile requests against every route with a body or query (seed ${seed})`, () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let document: OpenApiDocument;
  let oracle: ResponseOracle;
  let fingerprint: () => Promise<string>;
  let fixtures: Map<string, string>;
  let examples: Map<string, unknown[]>;
  const statuses = new Map<number, number>();
  let sent = 0;
  // Requests go to the api as `assay api` serves it, so what Node answers before the app (414) is checked too.
  let baseUrl: string;
  let closeHttp: () => Promise<void>;

  before(async () => {
    assert.ok(Number.isSafeInteger(seed), `FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);
    assert.ok(
      Number.isInteger(scale) && scale >= 1,
      `FUZZ_SCALE must be a whole number ≥ 1, got ${process.env.FUZZ_SCALE}`,
    );
    console.log(`    fuzz seed ${seed} (FUZZ_SEED=${seed} reproduces this run)`);
    const h = await harness();
    platform = await createTestPlatform(h, {
      env: { TEMPORAL_CODEC_ORIGINS: CODEC_ORIGIN, DATABASE_URL: await ownDatabase(h, 'fuzz') },
    });
    const served = await listen(platform.app, '127.0.0.1', 0);
    closeHttp = served.close;
    baseUrl = `http://127.0.0.1:${(served.server.address() as net.AddressInfo).port}`;
    tenant = await createTenant(platform.runtime.db);
    document = (await request(platform.app).get('/openapi.json').expect(200)).body;
    oracle = new ResponseOracle(document);
    fingerprint = await databaseFingerprint(platform.runtime.db);
    ({ fixtures, examples } = await createFuzzFixtures(platform, tenant));
  });
  after(async () => {
    await closeHttp?.();
    if (platform) await stopWorkspaceWorkflows(platform, tenant.workspaceId);
    await platform?.close();
  });

  async function context(): Promise<FuzzContext> {
    const viewer = await createTenant(platform.runtime.db, 'viewer');
    const normal = { ...tenant.auth };
    return {
      resolve: oracle.resolve,
      ids: [...fixtures.values()],
      fixtureFor: (segment) => fixtures.get(segment),
      examples: (operation) => examples.get(operation) ?? [],
      headers: fc.oneof(
        { weight: 20, arbitrary: fc.constant(normal) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            {},
            { Authorization: 'Bearer not-a-token' },
            { Authorization: 'Basic Zm9vOmJhcg==' },
            { ...normal, 'X-Workspace-Id': 'not-a-uuid' },
            { ...normal, 'X-Workspace-Id': '00000000-0000-4000-8000-000000000000' },
            viewer.auth,
          ),
        },
      ),
      extraHeaders: (path): Record<string, string> => (path.startsWith('/codec/') ? { Origin: CODEC_ORIGIN } : {}),
    };
  }

  async function send(req: FuzzRequest): Promise<request.Response> {
    const call = request(baseUrl)[req.method as 'get'](req.url).set(req.headers).timeout({ response: 30_000 });
    if (req.body) call.set('Content-Type', req.body.type).send(req.body.text);
    return call;
  }

  /**
   * Sends one request and checks it: no 5xx, a documented status and body, no success without the credentials the
   * operation documents, and nothing written on a 4xx.
   */
  async function check(req: FuzzRequest, before: { value: string }): Promise<void> {
    const res = await send(req);
    sent++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const after = await fingerprint();
    const written = after !== before.value;
    before.value = after;
    const said = `${res.status} ${JSON.stringify(res.body).slice(0, 500)}`;
    assert.ok(res.status < 500, `server error: ${said}`);
    const problem = oracle.problem(
      req.path,
      req.method,
      { status: res.status, body: res.body, type: res.type },
      { authorization: 'Authorization' in req.headers },
    );
    assert.equal(problem, undefined, `${problem}: ${said}`);
    assert.ok(!(res.status >= 400 && written), `a ${res.status} wrote to the database: ${said}`);
  }

  async function assertResponsive(): Promise<void> {
    const res = await request(platform.app).get('/healthz').timeout({ response: 5_000 });
    assert.equal(res.status, 200);
    assert.equal(oracle.problem('/healthz', 'get', res), undefined);
  }

  it('answers every generated request with a documented status and body, never a 5xx, writing nothing on a 4xx', async function () {
    // About 8 minutes on two loaded cores, and every new route adds requests: a generous bound, not a target.
    this.timeout(1_500_000);
    const ctx = await context();
    const failures: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const body = op.requestBody?.content?.['application/json']?.schema;
        const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        const kind = body ? 'body' : method === 'get' ? 'query' : path.includes('{') ? 'pathOnly' : undefined;
        if (!kind || !`${method.toUpperCase()} ${path}`.includes(only)) continue;
        // Writes without a body (delete, publish, test) only ever see hostile ids: a real one would act on it.
        const arbitrary = requestFor(method, path, ctx, {
          body,
          query: kind === 'query' ? queryNames : undefined,
          realIds: kind !== 'pathOnly',
        });
        const before = { value: await fingerprint() };
        await fc
          .assert(
            fc.asyncProperty(arbitrary, (req) => check(req, before)),
            { seed: seedFor(`${method} ${path}`), numRuns: RUNS[kind], includeErrorInReport: true },
          )
          .catch((error: Error) => failures.push(`${method.toUpperCase()} ${path}: ${error.message}`));
        // Once without any token, whatever the generators drew: only an operation whose security allows none succeeds.
        if (!path.includes('{')) {
          const emptyBody = body ? { type: 'application/json', text: '{}' } : undefined;
          await check(new FuzzRequest(method, path, path, ctx.extraHeaders(path), emptyBody), before).catch(
            (error: Error) => failures.push(`${method.toUpperCase()} ${path} without a token: ${error.message}`),
          );
        }
        await assertResponsive();
      }
    }
    console.log(
      `    fuzz: ${sent} requests, seed ${seed}; statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    assert.equal(failures.length, 0, failures.join('\n\n'));
    if (!only) assert.ok(sent >= MIN_REQUESTS, `only ${sent} requests`);
  });
});
