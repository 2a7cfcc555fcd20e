import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { acquireCaseSlot, releaseCaseSlot, renewCaseSlot } from '../../db/case-slot.repository';
import type { Db } from '../../db/database';
import { reserveJudgeCall, reserveJudgeCalls } from '../../db/judge-call.repository';
import { harness } from '../helpers/harness';
import { insertQueuedRun } from '../helpers/queued-run';
import { createTenant } from '../helpers/tenants';

const LEASE_MS = 60_000;

// A queued run in a fresh workspace: slots are counted per workspace, so each test starts from an empty one.
async function freshRun(db: Db): Promise<string> {
  const tenant = await createTenant(db, 'owner');
  return (await insertQueuedRun(db, tenant.workspaceId)).id;
}

const holder = (runId: string) => ({ runId, caseId: crypto.randomUUID() });

describe('case slots and judge-call counts in Postgres', () => {
  let db: Db;

  before(async () => {
    db = (await harness()).db;
  });

  it('grants exactly the cap to many acquirers racing for one workspace, and no more until one is released', async () => {
    const runId = await freshRun(db);
    const holders = Array.from({ length: 12 }, () => holder(runId));
    const outcomes = await Promise.all(holders.map((h) => acquireCaseSlot(db, h, 3, LEASE_MS)));
    const granted = holders.filter((_, i) => outcomes[i]?.acquired);
    assert.equal(granted.length, 3);
    const waiting = holders.find((_, i) => !outcomes[i]?.acquired)!;
    assert.deepEqual(await acquireCaseSlot(db, waiting, 3, LEASE_MS), { acquired: false, held: 3 });
    await releaseCaseSlot(db, granted[0]);
    await releaseCaseSlot(db, granted[0]);
    assert.deepEqual(await acquireCaseSlot(db, waiting, 3, LEASE_MS), { acquired: true, held: 3 });
  });

  it('keeps one slot for a holder that asks again (a retried acquire), and counts workspaces apart', async () => {
    const [runA, runB] = [await freshRun(db), await freshRun(db)];
    const a = holder(runA);
    assert.deepEqual(await acquireCaseSlot(db, a, 1, LEASE_MS), { acquired: true, held: 1 });
    assert.deepEqual(await acquireCaseSlot(db, a, 1, LEASE_MS), { acquired: true, held: 1 });
    assert.equal((await acquireCaseSlot(db, holder(runA), 1, LEASE_MS))?.acquired, false);
    assert.equal((await acquireCaseSlot(db, holder(runB), 1, LEASE_MS))?.acquired, true);
  });

  it('frees the slot of a holder that stopped renewing, and a late renewal does not take it back', async () => {
    const runId = await freshRun(db);
    const stopped = holder(runId);
    // A zero lease is one whose holder missed every renewal: it has lapsed by the next transaction.
    assert.equal((await acquireCaseSlot(db, stopped, 1, 0))?.acquired, true);
    const next = holder(runId);
    assert.deepEqual(await acquireCaseSlot(db, next, 1, LEASE_MS), { acquired: true, held: 1 });
    assert.equal(await renewCaseSlot(db, stopped, LEASE_MS), false);
    assert.equal(await renewCaseSlot(db, next, LEASE_MS), true);
    assert.equal((await acquireCaseSlot(db, holder(runId), 1, LEASE_MS))?.acquired, false);
  });

  it('answers nothing for a run that no longer exists', async () => {
    assert.equal(await acquireCaseSlot(db, holder(crypto.randomUUID()), 1, LEASE_MS), undefined);
  });

  it('reserves judge calls up to the bound and no further, even when asked all at once', async () => {
    const runId = await freshRun(db);
    const caseId = crypto.randomUUID();
    const granted = await Promise.all(Array.from({ length: 15 }, () => reserveJudgeCall(db, runId, caseId, 10)));
    assert.equal(granted.filter(Boolean).length, 10);
    assert.equal(await reserveJudgeCall(db, runId, caseId, 10), false);
    assert.equal(await reserveJudgeCall(db, runId, crypto.randomUUID(), 10), true);
  });

  it("counts a batch's expected judge calls in one statement, granting each case only what its bound leaves", async () => {
    const runId = await freshRun(db);
    const [fresh, nearBound, spent] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (let i = 0; i < 8; i++) await reserveJudgeCall(db, runId, nearBound, 10);
    for (let i = 0; i < 10; i++) await reserveJudgeCall(db, runId, spent, 10);
    const wanted = new Map([
      [fresh, 3],
      [nearBound, 3],
      [spent, 3],
    ]);
    const granted = await reserveJudgeCalls(db, runId, wanted, 10);
    assert.deepEqual(Object.fromEntries(granted), { [fresh]: 3, [nearBound]: 2, [spent]: 0 });
    // What was granted counts: one more call each finds the bound where the grants left it.
    assert.equal(await reserveJudgeCall(db, runId, nearBound, 10), false);
    assert.equal(await reserveJudgeCall(db, runId, fresh, 10), true);
    assert.deepEqual(await reserveJudgeCalls(db, runId, new Map(), 10), new Map());
  });
});
