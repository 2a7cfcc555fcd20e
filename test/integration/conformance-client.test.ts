import assert from 'node:assert/strict';
import { runClientScenario, type ScenarioOutcome } from '../helpers/conformance-client/run-scenario';
import { harness } from '../helpers/harness';
import { createTestPlatform, servePlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

// What each scenario must report as SUCCESS (beyond no FAILURE or WARNING at all).
const SCENARIOS: Record<string, string[]> = {
  initialize: ['mcp-client-initialization'],
  tools_call: ['tool-add-numbers'],
  'elicitation-sep1034-client-defaults': [
    'client-elicitation-sep1034-string-default',
    'client-elicitation-sep1034-integer-default',
    'client-elicitation-sep1034-number-default',
    'client-elicitation-sep1034-enum-default',
    'client-elicitation-sep1034-boolean-default',
  ],
  'sse-retry': ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id'],
};

const describeOutcome = (outcome: ScenarioOutcome): string =>
  `exit ${outcome.code}\n${JSON.stringify(outcome.checks, null, 2)}\n${outcome.stderr}`;

describe("the MCP conformance suite's client scenarios, with Assay's worker as the client", function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let served: { baseUrl: string; close(): Promise<void> };
  let tenant: Tenant;

  before(async () => {
    // The suite's servers listen on localhost.
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: 'localhost,127.0.0.1,::1' } });
    await platform.startWorker();
    served = await servePlatform(platform);
    tenant = await createTenant(platform.runtime.db, 'owner');
  });
  after(async () => {
    await served?.close();
    await platform?.close();
  });

  for (const [scenario, expected] of Object.entries(SCENARIOS)) {
    it(`passes ${scenario}`, async () => {
      const outcome = await runClientScenario(scenario, { apiUrl: served.baseUrl, token: tenant.token });
      assert.equal(outcome.code, 0, describeOutcome(outcome));
      const bad = outcome.checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      assert.deepEqual(bad, [], describeOutcome(outcome));
      for (const id of expected)
        assert.ok(
          outcome.checks.some((check) => check.id === id && check.status === 'SUCCESS'),
          `${id} passed\n${describeOutcome(outcome)}`,
        );
    });
  }
});
