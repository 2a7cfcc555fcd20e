import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { upsertMembership } from '../../db/member.repository';
import { LIMITS } from '../../domain/limits';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { postFromChild, type FilledBody } from '../helpers/bulk-poster';
import { startHealthProber, type HealthProber } from '../helpers/health-prober';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { rowCount, type CountedTable } from '../helpers/row-count';
import { createTenant, type Tenant } from '../helpers/tenants';

const AGENT = 'bulk-bot';
const BATCH = `/api/ai-agents/${AGENT}/runs/import/batch?eval_set=bulk`;
const JSONL = 'application/x-ndjson';
// Just under the body limit, so the body's shape, not its size, is what gets it refused.
const SIZE = LIMITS.importBodyBytes - 1024;

// `unit` repeated between `open` and `close` to about SIZE bytes.
const filled = (open: string, unit: string, close: string): FilledBody => ({ open, unit, close, bytes: SIZE });

const TOO_MANY = /limit casesPerEvalSet\)$/;
const TOO_DEEP = /must not nest deeper than/;
const NOT_AN_OBJECT = /^(items|cases)\[0\]: must be an object/;

interface Shape {
  shape: string;
  body: FilledBody;
  status: number;
  message: RegExp;
  type: string;
}
const shape = (name: string, body: FilledBody, status: number, message: RegExp, type = 'application/json'): Shape => ({
  shape: name,
  body,
  status,
  message,
  type,
});

/** The shapes a walk over a parsed body sees, each at 32 MiB, with the answer each gets (every one refused). */
const SHAPES: Shape[] = [
  shape('a JSON array of scalars', filled('[0', ',0', ']'), 413, TOO_MANY),
  shape('a JSON array of small objects', filled('[{}', ',{}', ']'), 413, TOO_MANY),
  shape('deep nesting of lists', filled('', '[', ''), 422, NOT_AN_OBJECT),
  shape('deep nesting of objects', filled('', '{"a":', ''), 422, TOO_DEEP),
  shape('deep nesting in an item', filled('[{"a":', '[', ''), 422, TOO_DEEP),
  shape('JSONL lines of arrays', filled('', `[${'0,'.repeat(16_000)}0]\n`, ''), 422, NOT_AN_OBJECT, JSONL),
  shape('JSONL lines of small objects', filled('', '{}\n', ''), 413, TOO_MANY, JSONL),
];
// The case import also reads a file: an object whose `cases` hold the items.
const FILE_SHAPE = shape('a file of scalar cases', filled('{"cases":[0', ',0', ']}'), 413, TOO_MANY);

describe('bulk import bodies are counted before they are walked, and refused before they are read', function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let server: http.Server;
  let port: number;
  let prober: HealthProber;
  let admin: Tenant;
  let viewerAuth: Record<string, string>;
  let casesPath: string;
  let adkResultsPath: string;

  const count = (table: CountedTable): Promise<number> => rowCount(platform.runtime.db, table);

  before(async () => {
    platform = await createTestPlatform(await harness());
    server = http.createServer(platform.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
    admin = await createTenant(platform.runtime.db, 'admin');
    const viewer = await createTenant(platform.runtime.db, 'viewer');
    await upsertMembership(platform.runtime.db, admin.workspaceId, viewer.userId, 'viewer');
    viewerAuth = { ...viewer.auth, 'X-Workspace-Id': admin.workspaceId };
    const api = evalApi(platform.app, admin);
    await api.agent(AGENT, 'gpt-4o');
    const set = await api.evalSet(AGENT, { name: 'bulk' });
    casesPath = `/api/ai-agents/${AGENT}/eval-sets/${set.id}/cases/import`;
    adkResultsPath = `/api/ai-agents/${AGENT}/eval-sets/${set.id}/adk-results`;
  });
  after(async () => {
    await prober?.stop();
    server?.close();
    await platform?.close();
  });

  it('answers a viewer 403 on both import routes (and the ADK result import) before the body has arrived', async () => {
    for (const path of [BATCH, casesPath, adkResultsPath]) {
      const answered = await new Promise<number>((resolve, reject) => {
        const req = http.request(`http://127.0.0.1:${port}${path}`, {
          method: 'POST',
          headers: { ...viewerAuth, 'Content-Type': 'application/json', 'Content-Length': String(SIZE) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
        // A first chunk only: the rest never comes, so only an answer given before reading the body can arrive.
        req.write('[');
        setTimeout(() => reject(new Error(`${path}: no answer while the body was still being sent`)), 20_000).unref();
      });
      assert.equal(answered, 403, path);
    }
  });

  it('refuses every shape at 32 MiB within a second on both routes, storing nothing, while /healthz stays fast', async () => {
    prober = startHealthProber(`http://127.0.0.1:${port}/healthz`, 100, 1_000);
    const before = { conversations: await count('conversations'), cases: await count('eval_cases') };
    const sent = [
      ...SHAPES.map((shape) => ({ ...shape, path: BATCH })),
      ...[...SHAPES, FILE_SHAPE].map((shape) => ({ ...shape, path: casesPath })),
    ];
    const answers = await postFromChild(
      sent.map(({ path, type, body }) => ({
        url: `http://127.0.0.1:${port}${path}`,
        headers: { ...admin.auth, 'Content-Type': type },
        body,
      })),
    );
    sent.forEach(({ shape, status, message, path }, i) => {
      const answer = answers[i];
      const what = `${shape} to ${path.split('?')[0]}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
      assert.equal(answer.status, status, what);
      assert.match(answer.body.error.message, message, what);
      assert.ok(answer.ms < 1_000, `${what} took ${Math.round(answer.ms)} ms`);
    });
    assert.deepEqual({ conversations: await count('conversations'), cases: await count('eval_cases') }, before);
    const probes = await prober.stop();
    const worst = probes.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(`      /healthz: ${probes.length} probes, worst ${worst.ms} ms`);
    assert.ok(probes.length >= 10, `only ${probes.length} probes`);
    assert.deepEqual(
      probes.filter((p) => p.status !== 200 || p.ms >= 200),
      [],
      'every probe answered 200 within 200 ms',
    );
  });
});
