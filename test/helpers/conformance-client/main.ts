/**
 * The conformance suite's client under test: `npx conformance client --command "<this>" --scenario <name>` runs it
 * with the scenario's server URL as the last argument, `MCP_CONFORMANCE_SCENARIO` and (for some scenarios)
 * `MCP_CONFORMANCE_CONTEXT`. It drives Assay's real HTTP API (`ASSAY_CONFORMANCE_API`, `ASSAY_CONFORMANCE_TOKEN`):
 * the worker is the MCP client the suite checks.
 */
import { assayClientFromEnv } from './assay-client';
import { drivers } from './drivers';

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const driver = drivers[scenario];
  if (!serverUrl || !driver) throw new Error(`no driver for scenario "${scenario}" (server ${serverUrl})`);
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, unknown>;
  await driver(assayClientFromEnv(), serverUrl, context);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[assay-conformance] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
