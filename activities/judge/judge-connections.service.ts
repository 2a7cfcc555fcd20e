import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { RunJudge } from '../../db/tables/eval-run.table';
import type { Provider } from '../../domain/agent/model-provider';
import { RUN_FAILURE, providerNotConnectedMessage } from '../../domain/eval/run-failures';
import type { EgressGuard } from '../../lib/outbound/egress/egress-guard';
import { createLimiterRegistry, limitedFetch } from '../../lib/outbound/llm/adaptive-limiter';
import { createProviderClient, type ProviderClient } from '../../lib/outbound/llm/provider-client';
import type { ActivityDeps } from '../platform/activity-deps';
import { sweepDeletedWorkspaces } from './judge-session-sweep';
import { connectProvider, integrationVersion } from '../platform/provider-connection';

// Per call: the SDK retries 429 / 5xx / timeouts itself (honouring retry-after); each attempt reserves a call of the
// case's budget, then takes a permit of the key's limiter, so its retries wait with every other call of the key (the
// wait for the permit and the SDK's own retry-after sleep overlap: both end when the provider asked).
const CALL_TIMEOUT_MS = 60_000;
const CALL_MAX_RETRIES = 4;
// A key rotated or an integration deleted is noticed within this long by a run in progress (one indexed row read).
const RECHECK_MS = 500;
// Bounds: one entry per run this worker scores at once is plenty; an ended run's entry ages out or is pushed out.
const MAX_RUNS = 256;
const IDLE_MS = 10 * 60_000;
const MAX_LIMITERS = 256;

/** A run's judge endpoint on this worker: one shared client (keep-alive through the egress guard) and its key's limiter. */
export interface JudgeConnection {
  client: ProviderClient;
  /** The guard's fetch behind the key's limiter: the inner fetch of each case's budget. */
  fetch: EgressGuard['fetch'];
  /** The integration's base URL the client asks. */
  baseUrl: string;
  /** Hash of the base URL and key: tells keys apart without holding or showing the key. */
  fingerprint: string;
  version: string;
  /** Which fresh read of the run's slot produced it. */
  read: number;
}

/** The run's connections on this worker, kept between cases; the key lives only inside the cached client. */
export interface JudgeConnections {
  /** The run's connection: read on first use, then checked against the integration row at most every ~500 ms. */
  get(runId: string, workspaceId: string, judge: RunJudge): Promise<JudgeConnection>;
  /** The provider refused `rejected`'s key: reads the integration afresh (once per refusal); null if the key is the same. */
  renew(
    runId: string,
    workspaceId: string,
    judge: RunJudge,
    rejected: JudgeConnection,
  ): Promise<JudgeConnection | null>;
}

// The one shared client of a connection serves many cases at once: each judge call runs its case's budgeted fetch here.
const caseFetch = new AsyncLocalStorage<EgressGuard['fetch']>();

/** Runs `call` with `fetch` as the fetch of every HTTP attempt the connection's client makes for it. */
export function withCaseFetch<T>(fetch: EgressGuard['fetch'], call: () => Promise<T>): Promise<T> {
  return caseFetch.run(fetch, call);
}

const scopedFetch: EgressGuard['fetch'] = (url, init) => {
  const fetch = caseFetch.getStore();
  if (!fetch) return Promise.reject(new Error('a judge call was made outside a case'));
  return fetch(url, init);
};

/** Refuses an endpoint the egress guard would not dial, naming it, as a failure that ends the run. */
export async function requireAllowedEndpoint(guard: EgressGuard, provider: Provider, baseUrl: string): Promise<void> {
  const verdict = await guard.check(baseUrl);
  if (!verdict.allowed)
    throw ApplicationFailure.nonRetryable(
      `the ${provider} endpoint is blocked: ${verdict.reason}`,
      RUN_FAILURE.egressBlocked,
    );
}

interface Slot {
  workspaceId: string;
  current: Promise<JudgeConnection>;
  checkedAt: number;
  usedAt: number;
  reads: number;
}

/** Builds the worker's cache of judge connections (one per run, least recently used evicted) and key limiters. */
export function createJudgeConnections(deps: ActivityDeps): JudgeConnections {
  const slots = new Map<string, Slot>();
  const limiterFor = createLimiterRegistry(MAX_LIMITERS);
  const deletions = sweepDeletedWorkspaces(deps.db, slots);

  // The one place the vault is read for the judge: the key and base_url together, under the integration's lock.
  const connect = async (workspaceId: string, judge: RunJudge, read: number): Promise<JudgeConnection> => {
    const notConnected = providerNotConnectedMessage(judge.provider, judge.model);
    const { baseUrl, apiKey, version } = await connectProvider(deps, workspaceId, judge.provider, notConnected);
    await requireAllowedEndpoint(deps.egress, judge.provider, baseUrl);
    const fingerprint = crypto.createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 16);
    const limiter = limiterFor(`${workspaceId}/${judge.provider}/${fingerprint}`);
    const client = createProviderClient({
      provider: judge.provider,
      baseUrl,
      apiKey,
      fetch: scopedFetch,
      timeoutMs: CALL_TIMEOUT_MS,
      maxRetries: CALL_MAX_RETRIES,
    });
    const fetch = limitedFetch(limiter, deps.egress.fetch);
    return { client, fetch, baseUrl, fingerprint, version, read };
  };

  // Replaces the slot's connection; a failed read leaves no slot behind, so the next case reads again.
  const settle = (key: string, slot: Slot, next: Promise<JudgeConnection>): Promise<JudgeConnection> => {
    slot.current = next;
    next.catch(() => {
      if (slots.get(key) === slot && slot.current === next) slots.delete(key);
    });
    return next;
  };

  const prune = (now: number): void => {
    for (const [key, slot] of slots) {
      if (slots.size <= MAX_RUNS && now - slot.usedAt < IDLE_MS) break;
      slots.delete(key);
    }
  };

  return {
    get(runId, workspaceId, judge) {
      const now = Date.now();
      const slot = slots.get(runId);
      if (slot) slots.delete(runId);
      prune(now);
      if (!slot) {
        const fresh: Slot = {
          workspaceId,
          current: connect(workspaceId, judge, 1),
          checkedAt: now,
          usedAt: now,
          reads: 1,
        };
        slots.set(runId, fresh);
        deletions.wake();
        return settle(runId, fresh, fresh.current);
      }
      slot.usedAt = now;
      slots.set(runId, slot);
      if (now - slot.checkedAt < RECHECK_MS) return slot.current;
      slot.checkedAt = now;
      const checked = slot.current.then(async (connection) =>
        (await integrationVersion(deps, workspaceId, judge.provider)) === connection.version
          ? connection
          : connect(workspaceId, judge, ++slot.reads),
      );
      return settle(runId, slot, checked);
    },

    async renew(runId, workspaceId, judge, rejected) {
      let slot = slots.get(runId);
      if (!slot) {
        slot = {
          workspaceId,
          current: Promise.resolve(rejected),
          checkedAt: Date.now(),
          usedAt: Date.now(),
          reads: rejected.read,
        };
        slots.set(runId, slot);
        deletions.wake();
      }
      // Many cases meet the same refusal at once: the first reads afresh, the rest wait for that read.
      const fresh =
        slot.reads > rejected.read ? slot.current : settle(runId, slot, connect(workspaceId, judge, ++slot.reads));
      slot.checkedAt = Date.now();
      const connection = await fresh;
      return connection.fingerprint === rejected.fingerprint ? null : connection;
    },
  };
}
