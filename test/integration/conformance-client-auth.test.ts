import assert from 'node:assert/strict';
import { STEP_UP_AUTHORIZATIONS } from '../../lib/outbound/mcp/oauth/oauth-step-up';
import { AUTH_SCENARIOS } from '../helpers/conformance-client/drivers';
import { runClientScenario, type ScenarioOutcome } from '../helpers/conformance-client/run-scenario';
import { harness } from '../helpers/harness';
import { createTestPlatform, servePlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

// The suite's CIMD scenario accepts only its own fixed client id URL (it does not fetch it): Assay is configured as
// published there (ASSAY_OAUTH_CLIENT_METADATA_URL) under that origin as ASSAY_PUBLIC_URL, and the driver's "browser"
// opens that origin's callback at the api's real address (as a hosts entry would).
const PUBLIC_URL = 'https://conformance-test.local';
const CLIENT_METADATA_URL = `${PUBLIC_URL}/client-metadata.json`;

// What each scenario must report as SUCCESS besides no FAILURE or WARNING at all.
const EXPECTED: Record<string, string[]> = {
  'auth/basic-cimd': ['cimd-client-id-used'],
  'auth/scope-step-up': ['scope-step-up-initial', 'scope-step-up-escalation'],
  'auth/scope-retry-limit': ['scope-retry-limit'],
  'auth/pre-registration': [],
};

// auth/scope-retry-limit answers 403 insufficient_scope to every request after the handshake, refresh-tools' tools/list
// included: the server must stay authorization_required (never error) so the driver authorizes again, until Assay's
// own limit of step-up authorizations refuses another one.
const AUTHORIZATIONS: Record<string, number> = { 'auth/scope-retry-limit': 1 + STEP_UP_AUTHORIZATIONS };

const describeOutcome = (outcome: ScenarioOutcome): string =>
  `exit ${outcome.code}\n${JSON.stringify(outcome.checks, null, 2)}\n${outcome.stderr}`;

describe("the MCP conformance suite's auth/* client scenarios, Assay's worker as the OAuth client", function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let served: { baseUrl: string; close(): Promise<void> };

  before(async () => {
    // The suite's servers listen on localhost.
    platform = await createTestPlatform(await harness(), {
      env: {
        EGRESS_ALLOWLIST: 'localhost,127.0.0.1,::1',
        ASSAY_PUBLIC_URL: PUBLIC_URL,
        ASSAY_OAUTH_CLIENT_METADATA_URL: CLIENT_METADATA_URL,
      },
    });
    await platform.startWorker();
    served = await servePlatform(platform);
  });
  after(async () => {
    await served?.close();
    await platform?.close();
  });

  // The extension scenario of the client credentials grant (auth.type "oauth_client_credentials") runs too.
  for (const scenario of [...AUTH_SCENARIOS, 'auth/client-credentials-basic']) {
    it(`passes ${scenario}`, async () => {
      // A workspace per scenario: the driver names its flows by tool, and the suite's tools share names.
      const tenant = await createTenant(platform.runtime.db, 'owner');
      const outcome = await runClientScenario(scenario, {
        apiUrl: served.baseUrl,
        token: tenant.token,
        publicUrl: PUBLIC_URL,
      });
      assert.equal(outcome.code, 0, describeOutcome(outcome));
      assert.ok(outcome.checks.length > 0, describeOutcome(outcome));
      const bad = outcome.checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      assert.deepEqual(bad, [], describeOutcome(outcome));
      for (const id of EXPECTED[scenario] ?? [])
        assert.ok(
          outcome.checks.some((check) => check.id === id && check.status === 'SUCCESS'),
          `${id} passed\n${describeOutcome(outcome)}`,
        );
      if (AUTHORIZATIONS[scenario] !== undefined)
        assert.equal(
          outcome.checks.filter((check) => check.id === 'scope-retry-auth-attempt').length,
          AUTHORIZATIONS[scenario],
          `authorization attempts\n${describeOutcome(outcome)}`,
        );
    });
  }
});
