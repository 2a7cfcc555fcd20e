import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { startHostilePeerRig, type HostilePeerRig } from '../helpers/hostile-peer-rig';
import type { TestPlatform } from '../helpers/platform';
import type { Tenant } from '../helpers/tenants';
import { HOSTILE_SCHEMA_TOOLS, hostileAnswer, timedWithStalls } from '../helpers/hostile-schemas';

const PROMPT_MS = 2_000;
const STALL_MS = 1_000;
const UNCHECKABLE =
  /output schema cannot be used: it (nests deeper|expands to more subschemas) than allowed: .*\(limit outputSchema(Depth|Nodes)\)/;

describe('hostile output schemas: every MCP client checks a result in time linear in it', function () {
  this.timeout(180_000);
  let rig: HostilePeerRig;
  let platform: TestPlatform;
  let owner: Tenant;
  let serverId: string;
  let client: Client;

  before(async () => {
    rig = await startHostilePeerRig('hostile', {
      pageSize: 10,
      tools: HOSTILE_SCHEMA_TOOLS.map(({ answer: _answer, ...tool }) => tool),
      callTool: async (name: string) => hostileAnswer(name),
    });
    ({ platform, owner, serverId, client } = rig);
  });
  after(() => rig?.close());

  const throughGateway = (name: string) =>
    timedWithStalls(() =>
      client.callTool({ name: `hostile__${name}`, arguments: {} }).then(
        (result) => ({ structured: result.structuredContent, error: undefined as string | undefined }),
        (error: Error) => ({ structured: undefined, error: error.message }),
      ),
    );
  const throughPlayground = (name: string) =>
    timedWithStalls(async () => {
      const res = await request(platform.app)
        .post(`/api/v1/mcp-servers/${serverId}/tools/${name}/call`)
        .set(owner.auth)
        .send({ arguments: {} });
      assert.equal(res.status, 200, res.text);
      return res.body as { structuredContent: unknown; output_schema_check: { valid: boolean; errors?: string[] } };
    });
  const prompt = (label: string, timing: { ms: number; stallMs: number }): void => {
    assert.ok(timing.ms < PROMPT_MS, `${label} took ${Math.round(timing.ms)} ms`);
    assert.ok(timing.stallMs < STALL_MS, `${label} stalled the event loop for ${Math.round(timing.stallMs)} ms`);
  };

  for (const name of ['pattern', 'pattern_properties', 'huge_enum']) {
    it(`answers a gateway call of the ${name} tool promptly, its result passed on, the process responsive`, async () => {
      const timing = await throughGateway(name);
      prompt(`the gateway call of ${name}`, timing);
      assert.equal(timing.value.error, undefined);
      assert.deepEqual(timing.value.structured, hostileAnswer(name).structuredContent);
    });

    it(`answers a playground call of the ${name} tool promptly, its output-schema check passing`, async () => {
      const timing = await throughPlayground(name);
      prompt(`the playground call of ${name}`, timing);
      assert.deepEqual(timing.value.output_schema_check, { valid: true });
    });
  }

  it('refuses, promptly, to check a result against references that double at each level, naming the limit', async () => {
    const gatewayTiming = await throughGateway('doubling_refs');
    prompt('the gateway call of doubling_refs', gatewayTiming);
    assert.match(gatewayTiming.value.error ?? '', UNCHECKABLE);
    const playgroundTiming = await throughPlayground('doubling_refs');
    prompt('the playground call of doubling_refs', playgroundTiming);
    assert.equal(playgroundTiming.value.output_schema_check.valid, false);
    assert.match(playgroundTiming.value.output_schema_check.errors?.join(' ') ?? '', UNCHECKABLE);
  });
});
