import assert from 'node:assert/strict';
import type { Express } from 'express';
import request from 'supertest';
import type { ScriptedReply, ScriptedRequest } from './scripted-llm';
import type { Tenant } from './tenants';

/** The parsed user message of a judge request: which criterion it serves and what it was shown. */
export interface JudgeAsk {
  task: 'final_response_match' | 'rubric_based';
  user_input: string;
  expected_response?: string;
  actual_response?: string;
  response?: string;
  rubrics?: Array<{ index: number; rubric: string }>;
  /** A scenario criterion's transcript and items (`task_success`: criteria; `persona_adherence`: user turns). */
  conversation?: Array<{ turn: number; user: string; agent: string }>;
  criteria?: Array<{ index: number; criterion: string }>;
  items?: Array<{ index: number; user_turn: number }>;
}

/** Reads what the judge was asked from a scripted request. */
export function judgeAsk(req: ScriptedRequest): JudgeAsk {
  const user = req.messages.find((m) => m.role === 'user');
  return JSON.parse(user?.content ?? '{}') as JudgeAsk;
}

/** A judge script: `match` says whether two responses are equivalent, `rubric` whether a rubric is met. */
export function judgeReplies(decide: {
  match?: (ask: JudgeAsk) => boolean;
  rubric?: (rubric: string, ask: JudgeAsk) => boolean;
  /** Scenario criteria: whether a `task_success` item holds, whether a simulated user message kept to its persona. */
  taskItem?: (criterion: string, ask: JudgeAsk) => boolean;
  userTurn?: (userMessage: string, ask: JudgeAsk) => boolean;
  delayMs?: number;
}): (req: ScriptedRequest) => ScriptedReply {
  return (req) => {
    const ask = judgeAsk(req);
    if (SCENARIO_TASKS.includes(ask.task)) return scenarioReply(ask, decide);
    if (ask.task === 'final_response_match') {
      const equivalent = decide.match ? decide.match(ask) : ask.expected_response === ask.actual_response;
      return {
        content: JSON.stringify({ equivalent, justification: equivalent ? 'same meaning' : 'different meaning' }),
        delayMs: decide.delayMs,
      };
    }
    const verdicts = (ask.rubrics ?? []).map(({ index, rubric }) => {
      const yes = decide.rubric ? decide.rubric(rubric, ask) : true;
      return { index, verdict: yes ? 'YES' : 'NO', justification: `${yes ? 'meets' : 'misses'}: ${rubric}` };
    });
    return { content: JSON.stringify({ verdicts }), delayMs: decide.delayMs };
  };
}

const SCENARIO_TASKS: readonly string[] = ['task_success', 'persona_adherence'];

// The verdicts of a scenario criterion: one per task_success item or per user turn, YES unless the decider says no.
function scenarioReply(ask: JudgeAsk, decide: Parameters<typeof judgeReplies>[0]): ScriptedReply {
  const items =
    (ask.task as string) === 'task_success'
      ? (ask.criteria ?? []).map(({ index, criterion }) => ({ index, yes: decide.taskItem?.(criterion, ask) ?? true }))
      : (ask.items ?? []).map(({ index, user_turn }) => ({
          index,
          yes: decide.userTurn?.(ask.conversation?.[user_turn]?.user ?? '', ask) ?? true,
        }));
  const verdicts = items.map(({ index, yes }) => ({
    index,
    verdict: yes ? 'YES' : 'NO',
    justification: yes ? 'holds' : 'does not hold',
  }));
  return { content: JSON.stringify({ verdicts }), delayMs: decide.delayMs };
}

/** HTTP helpers for one tenant's evaluation API, each asserting the expected status. */
export function evalApi(app: Express, tenant: Tenant) {
  const send = async (
    method: 'post' | 'put' | 'patch' | 'get' | 'delete',
    path: string,
    status: number,
    body?: unknown,
  ): Promise<any> => {
    const call = request(app)[method](path).set(tenant.auth);
    const res = body === undefined ? await call : await call.send(body as object);
    assert.equal(res.status, status, `${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    send,
    async agent(name: string, model: string): Promise<any> {
      return (await send('post', '/api/ai-agents', 201, { name, model, instructions: 'Help.' })).data;
    },
    async connect(provider: string, apiKey: string, baseUrl: string): Promise<any> {
      return (
        await send('put', `/api/workspaces/current/integrations/${provider}`, 200, {
          api_key: apiKey,
          base_url: baseUrl,
        })
      ).data;
    },
    async importRun(agent: string, body: Record<string, unknown>): Promise<any> {
      return (await send('post', `/api/ai-agents/${agent}/runs/import`, 201, body)).data;
    },
    async evalSet(agent: string, body: Record<string, unknown>): Promise<any> {
      return (await send('post', `/api/ai-agents/${agent}/eval-sets`, 201, body)).data;
    },
    async promote(agent: string, runId: string, evalSetId: string, name?: string): Promise<any> {
      return (
        await send('post', `/api/ai-agents/${agent}/runs/${runId}/promote-to-case`, 201, {
          eval_set_id: evalSetId,
          ...(name ? { name } : {}),
        })
      ).data;
    },
    async addCase(agent: string, set: string, body: Record<string, unknown>): Promise<any> {
      return (await send('post', `/api/ai-agents/${agent}/eval-sets/${set}/cases`, 201, body)).data;
    },
    async trigger(agent: string, set: string, body: Record<string, unknown> = {}): Promise<any> {
      return (await send('post', `/api/ai-agents/${agent}/eval-sets/${set}/run`, 201, body)).data;
    },
    async results(agent: string, runId: string): Promise<any[]> {
      return (await send('get', `/api/ai-agents/${agent}/eval-runs/${runId}/results`, 200)).data;
    },
    /** Polls the run until it is completed, failed or cancelled, failing the test at the deadline. */
    async waitForEnd(agent: string, runId: string, timeoutMs = 60_000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = (await send('get', `/api/ai-agents/${agent}/eval-runs/${runId}`, 200)).data;
        if (['completed', 'failed', 'cancelled'].includes(run.status)) return run;
        assert.ok(Date.now() < deadline, `run ${runId} still ${run.status} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    },
  };
}
