import assert from 'node:assert/strict';
import request from 'supertest';
import { recordCaseResult } from '../../db/case-result.repository';
import { recordEvalRunEnd } from '../../db/run-end.repository';
import { upsertMembership } from '../../db/member.repository';
import { CANCELLED } from '../../domain/eval/run-end';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Role = 'viewer' | 'builder' | 'admin' | 'guest';
interface Endpoint {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string | (() => Promise<string> | string);
  body?: object | (() => Promise<object> | object);
  permission: string;
  success: number;
}

// The spec's table in words, and the roles that hold each permission: view = viewer and up; manage and
// create-case = builder and up; provider integrations = admin and owner only. `guest` holds no permission at all.
const ALLOWED: Record<string, Role[]> = {
  'evals:view': ['viewer', 'builder', 'admin'],
  'evals:manage': ['builder', 'admin'],
  'evals:create_case': ['builder', 'admin'],
  'integrations:manage': ['admin'],
};

describe('evaluation permissions', () => {
  let platform: TestPlatform;
  let owner: Tenant;
  let api: ReturnType<typeof evalApi>;
  const members = {} as Record<Role, Record<string, string>>;
  const ids: Record<string, string> = {};
  let counter = 0;

  const freshSet = async (): Promise<string> => (await api.evalSet('agent', { name: `set-${counter++}` })).id;
  const freshCase = async (): Promise<string> =>
    (await api.addCase('agent', 'main', { name: `case-${counter++}`, session_input: { message: 'hi' } })).id;

  const endpoints: Record<string, Endpoint> = {
    'import a conversation': {
      method: 'post',
      path: '/api/ai-agents/agent/runs/import',
      body: { session_input: { message: 'hi' }, final_response: 'hello' },
      permission: 'evals:manage',
      success: 201,
    },
    'list conversations': { method: 'get', path: '/api/ai-agents/agent/runs', permission: 'evals:view', success: 200 },
    'get a conversation': {
      method: 'get',
      path: () => `/api/ai-agents/agent/runs/${ids.conversation}`,
      permission: 'evals:view',
      success: 200,
    },
    'promote a conversation to a case': {
      method: 'post',
      path: () => `/api/ai-agents/agent/runs/${ids.conversation}/promote-to-case`,
      body: () => ({ eval_set_id: ids.set }),
      permission: 'evals:create_case',
      success: 201,
    },
    'create an eval set': {
      method: 'post',
      path: '/api/ai-agents/agent/eval-sets',
      body: () => ({ name: `made-${counter++}` }),
      permission: 'evals:manage',
      success: 201,
    },
    'list eval sets': { method: 'get', path: '/api/ai-agents/agent/eval-sets', permission: 'evals:view', success: 200 },
    'get an eval set': {
      method: 'get',
      path: '/api/ai-agents/agent/eval-sets/main',
      permission: 'evals:view',
      success: 200,
    },
    'update an eval set': {
      method: 'patch',
      path: '/api/ai-agents/agent/eval-sets/main',
      body: { description: 'x' },
      permission: 'evals:manage',
      success: 200,
    },
    'delete an eval set': {
      method: 'delete',
      path: async () => `/api/ai-agents/agent/eval-sets/${await freshSet()}`,
      permission: 'evals:manage',
      success: 204,
    },
    'create a case by hand': {
      method: 'post',
      path: '/api/ai-agents/agent/eval-sets/main/cases',
      body: { name: 'by hand', session_input: { message: 'hi' } },
      permission: 'evals:manage',
      success: 201,
    },
    'list cases': {
      method: 'get',
      path: '/api/ai-agents/agent/eval-sets/main/cases',
      permission: 'evals:view',
      success: 200,
    },
    'get a case': {
      method: 'get',
      path: () => `/api/ai-agents/agent/eval-sets/main/cases/${ids.case}`,
      permission: 'evals:view',
      success: 200,
    },
    'update a case': {
      method: 'patch',
      path: () => `/api/ai-agents/agent/eval-sets/main/cases/${ids.case}`,
      body: { rubrics: ['is polite'] },
      permission: 'evals:manage',
      success: 200,
    },
    'delete a case': {
      method: 'delete',
      path: async () => `/api/ai-agents/agent/eval-sets/main/cases/${await freshCase()}`,
      permission: 'evals:manage',
      success: 204,
    },
    'trigger a run': {
      method: 'post',
      path: '/api/ai-agents/agent/eval-sets/main/run',
      body: {},
      permission: 'evals:manage',
      success: 201,
    },
    'list runs of a set': {
      method: 'get',
      path: '/api/ai-agents/agent/eval-sets/main/runs',
      permission: 'evals:view',
      success: 200,
    },
    'read run status': {
      method: 'get',
      path: () => `/api/ai-agents/agent/eval-runs/${ids.run}`,
      permission: 'evals:view',
      success: 200,
    },
    'read run results': {
      method: 'get',
      path: () => `/api/ai-agents/agent/eval-runs/${ids.run}/results`,
      permission: 'evals:view',
      success: 200,
    },
    'list the cases of a run': {
      method: 'get',
      path: () => `/api/ai-agents/agent/eval-runs/${ids.run}/cases`,
      permission: 'evals:view',
      success: 200,
    },
    'cancel a run': {
      method: 'post',
      path: async () => `/api/ai-agents/agent/eval-runs/${(await api.trigger('agent', 'main')).id}/cancel`,
      permission: 'evals:manage',
      success: 202,
    },
    'retry the error cases of a run': {
      method: 'post',
      path: () => `/api/ai-agents/agent/eval-runs/${ids.endedRun}/retry-errors`,
      permission: 'evals:manage',
      success: 201,
    },
    'read the judge model': {
      method: 'get',
      path: '/api/workspaces/current/eval-judge-model',
      permission: 'evals:view',
      success: 200,
    },
    'write the judge model': {
      method: 'put',
      path: '/api/workspaces/current/eval-judge-model',
      body: { judge_model: 'gpt-4.1-mini' },
      permission: 'evals:manage',
      success: 200,
    },
    'connect a provider': {
      method: 'put',
      path: '/api/workspaces/current/integrations/openai',
      body: { api_key: 'sk-permission-test-key-000' },
      permission: 'integrations:manage',
      success: 200,
    },
    'list integrations': {
      method: 'get',
      path: '/api/workspaces/current/integrations',
      permission: 'integrations:manage',
      success: 200,
    },
    'get an integration': {
      method: 'get',
      path: '/api/workspaces/current/integrations/openai',
      permission: 'integrations:manage',
      success: 200,
    },
    'disconnect a provider': {
      method: 'delete',
      path: async () => {
        await api.connect('mistral', 'sk-permission-test-key-001', 'http://127.0.0.1:9/v1');
        return '/api/workspaces/current/integrations/mistral';
      },
      permission: 'integrations:manage',
      success: 204,
    },
  };

  // A run that ended with its one case `error` (no worker runs here: its result and end are written directly).
  const endedWithAnError = async (caseId: string): Promise<string> => {
    const run = await api.trigger('agent', 'main');
    await recordCaseResult(platform.runtime.db, {
      run_id: run.id,
      case_id: caseId,
      case_name: 'errored',
      conversation_id: null,
      status: 'error',
      criteria: {},
      error: 'the judge gave no usable verdict',
      judge_usage: null,
      scored_by: 'test',
    });
    await recordEvalRunEnd(platform.runtime.db, run.id, { stopped: CANCELLED });
    return run.id;
  };

  before(async () => {
    platform = await createTestPlatform(await harness());
    owner = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, owner);
    await api.agent('agent', 'gpt-4o');
    await api.connect('openai', 'sk-permission-test-key-000', 'http://127.0.0.1:9/v1');
    ids.set = (await api.evalSet('agent', { name: 'main' })).id;
    ids.conversation = (await api.importRun('agent', { session_input: { message: 'hi' }, final_response: 'hello' })).id;
    ids.case = await freshCase();
    ids.run = (await api.trigger('agent', 'main')).id;
    ids.endedRun = await endedWithAnError(ids.case);
    for (const role of ['viewer', 'builder', 'admin', 'guest'] as Role[]) {
      const member = await createTenant(platform.runtime.db, role);
      await upsertMembership(platform.runtime.db, owner.workspaceId, member.userId, role);
      members[role] = { ...member.auth, 'X-Workspace-Id': owner.workspaceId };
    }
  });
  after(async () => platform?.close());

  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${name}: allowed to ${ALLOWED[endpoint.permission].join(', ')}; 403 naming ${endpoint.permission} for the rest`, async () => {
      for (const role of ['guest', 'viewer', 'builder', 'admin'] as Role[]) {
        const path = typeof endpoint.path === 'function' ? await endpoint.path() : endpoint.path;
        const body = typeof endpoint.body === 'function' ? await endpoint.body() : endpoint.body;
        const call = request(platform.app)[endpoint.method](path).set(members[role]);
        const res = body === undefined ? await call : await call.send(body);
        if (ALLOWED[endpoint.permission].includes(role)) {
          assert.equal(res.status, endpoint.success, `${role}: ${JSON.stringify(res.body)}`);
        } else {
          assert.equal(res.status, 403, `${role} got ${res.status}`);
          assert.deepEqual(res.body.error.details, { permission: endpoint.permission });
        }
      }
    });
  }
});
