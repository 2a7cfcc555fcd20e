import type { AssayClient } from './assay-client';
import { clientCredentialsDriver, oauthDriver } from './oauth-steps';
import { registerAndCallEveryTool } from './steps';

/** One scenario's driving; `context` is the parsed `MCP_CONFORMANCE_CONTEXT`, if the suite gave one. */
export type ScenarioDriver = (api: AssayClient, serverUrl: string, context: Record<string, unknown>) => Promise<void>;

const plain: ScenarioDriver = (api, url) => registerAndCallEveryTool(api, url);

/** The suite's auth/* client scenarios of the 2025-11-25 requirement set (`npx conformance list`). */
export const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];

/** The scenarios the driver knows, by the suite's name; auth/* drivers join here. */
export const drivers: Record<string, ScenarioDriver> = {
  initialize: plain,
  tools_call: plain,
  'elicitation-sep1034-client-defaults': plain,
  'sse-retry': plain,
  ...Object.fromEntries(AUTH_SCENARIOS.map((name) => [name, oauthDriver])),
  'auth/client-credentials-basic': clientCredentialsDriver,
};
