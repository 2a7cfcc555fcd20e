import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { storeCachedVerdict } from '../../db/judge-verdict-cache.repository';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { fillJudgeCache, SHORT_REPLY } from '../helpers/judge-cache-fill';
import { judgedSuite } from '../helpers/judged-suite';
import { promoteCases } from '../helpers/promoted-cases';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const judge = judgeReplies({});
// Over `LIMITS.judgeReplyBytes` (64 KiB) and still a usable verdict.
const LONG_JUSTIFICATION = 'because '.repeat(10_000);

// A case of the "long" prefix is judged with a verdict too long to cache; every other case as usual.
function script(req: ScriptedRequest): ReturnType<typeof judge> {
  if (!judgeAsk(req).user_input.startsWith('long ')) return judge(req);
  return { content: JSON.stringify({ equivalent: true, justification: LONG_JUSTIFICATION }) };
}

// Rows of the cache table and its indexes read by this transaction so far (sequential and index scans).
async function rowsRead(trx: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(oid)), 0) AS n FROM pg_class
    WHERE oid = 'judge_verdict_cache'::regclass
       OR oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'judge_verdict_cache'::regclass)`.execute(trx);
  return Number(rows[0].n);
}

describe('the judge verdict cache bounds', () => {
  const suite = judgedSuite(script);
  let other: ScriptedLlm;
  before(async () => {
    other = await startScriptedLlm(script);
  });
  after(async () => other?.close());

  // A workspace judging a set of two promoted cases (`prefix 0`, `prefix 1`) once each at `baseUrl`.
  async function judgedSet(prefix: string) {
    const api = evalApi(suite.platform.app, await createTenant(suite.platform.runtime.db, 'owner'));
    await api.agent(prefix, 'gpt-4o');
    const set = await api.evalSet(prefix, { name: 'bounded', judge_samples: 1 });
    await promoteCases(api, prefix, set.id, 2, prefix);
    const run = async (baseUrl: string) => {
      await api.connect('openai', 'sk-cache-bounds-key-9d2f', baseUrl);
      const done = await api.waitForEnd(prefix, (await api.trigger(prefix, set.id)).id);
      assert.equal(done.status, 'completed', done.error);
      return done.summary.judge_cache;
    };
    return { run };
  }

  it("judges afresh at another endpoint of the same provider, and keeps each endpoint's verdicts", async function () {
    this.timeout(90_000);
    const { run } = await judgedSet('moved');
    const [firstAsked, otherAsked] = [suite.llm.requests.length, other.requests.length];
    assert.deepEqual(await run(suite.llm.baseUrl), { hits: 0, misses: 2 });
    assert.deepEqual(await run(other.baseUrl), { hits: 0, misses: 2 }, 'another base_url is another judge');
    assert.equal(other.requests.length - otherAsked, 2);
    assert.deepEqual(await run(suite.llm.baseUrl), { hits: 2, misses: 0 });
    assert.equal(suite.llm.requests.length - firstAsked, 2);
  });

  it('does not cache a reply over judgeReplyBytes', async function () {
    this.timeout(90_000);
    const { run } = await judgedSet('long');
    assert.deepEqual(await run(suite.llm.baseUrl), { hits: 0, misses: 2 });
    assert.deepEqual(await run(suite.llm.baseUrl), { hits: 0, misses: 2 }, 'both verdicts were too long to keep');
  });

  it("evicts a workspace's oldest entries past its byte budget", async () => {
    const db = suite.platform.runtime.db;
    const { workspaceId } = await createTenant(db, 'owner');
    // About 1,060 bytes each: three fit in 3,500 bytes, four do not.
    const reply = { ...SHORT_REPLY, content: JSON.stringify({ equivalent: true, justification: 'x'.repeat(1_000) }) };
    for (const key of ['b1', 'b2', 'b3', 'b4', 'b5']) await storeCachedVerdict(db, workspaceId, key, reply, 100, 3_500);
    const kept = await db
      .selectFrom('judge_verdict_cache')
      .select('key')
      .where('workspace_id', '=', workspaceId)
      .orderBy('key')
      .execute();
    assert.deepEqual(
      kept.map((row) => row.key),
      ['b3', 'b4', 'b5'],
    );
    const { rows } = await sql<{ counted: string; actual: string }>`
      SELECT (SELECT entries || '/' || bytes FROM judge_cache_usage WHERE workspace_id = ${workspaceId}::uuid) AS counted,
             (SELECT count(*) || '/' || sum(bytes) FROM judge_verdict_cache WHERE workspace_id = ${workspaceId}::uuid)
               AS actual`.execute(db);
    assert.equal(rows[0].counted, rows[0].actual, 'the kept counts are those of the entries');
  });

  it('evicts reading as few rows at 100,000 entries as at 10', async function () {
    this.timeout(120_000);
    const db = suite.platform.runtime.db;
    // A full cache of `size` entries (oldest first by key), then one more store: the rows its eviction read.
    const evictionReads = async (size: number) => {
      const { workspaceId } = await createTenant(db, 'owner');
      await fillJudgeCache(db, workspaceId, size);
      const read = await db.transaction().execute(async (trx) => {
        const before = await rowsRead(trx);
        await storeCachedVerdict(trx, workspaceId, 'newest', SHORT_REPLY, size);
        return (await rowsRead(trx)) - before;
      });
      const oldest = await db
        .selectFrom('judge_verdict_cache')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('key').as('first')])
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      assert.deepEqual([Number(oldest.n), oldest.first], [size, 'fill-000002'], 'exactly the oldest entry went');
      return read;
    };
    const small = await evictionReads(10);
    const large = await evictionReads(100_000);
    assert.ok(
      large >= 1 && large <= small + 5 && large < 50,
      `rows read to evict: ${small} at 10 entries, ${large} at 100,000`,
    );
  });
});
