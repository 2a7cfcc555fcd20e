import type { AssayClient } from './assay-client';
import { registerAndCallEveryTool } from './steps';

/** One scenario's driving; `context` is the parsed `MCP_CONFORMANCE_CONTEXT`, if the suite gave one. */
export type ScenarioDriver = (api: AssayClient, serverUrl: string, context: Record<string, unknown>) => Promise<void>;

const plain: ScenarioDriver = (api, url) => registerAndCallEveryTool(api, url);

/** The scenarios the driver knows, by the suite's name; auth/* drivers join here. */
export const drivers: Record<string, ScenarioDriver> = {
  initialize: plain,
  tools_call: plain,
  'elicitation-sep1034-client-defaults': plain,
  'sse-retry': plain,
};
