import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundlePath, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { WORKFLOW_TRACING_INTERCEPTORS } from '../lib/telemetry/temporal-tracing';

/**
 * Where `npm run build` writes the prebuilt bundle: `dist/workflow-bundle.js`, beside the compiled `dist/worker/`.
 * Run from the TypeScript sources this points outside `dist/` at a file that never exists, so they bundle at start.
 */
export const PREBUILT_BUNDLE_PATH = path.resolve(__dirname, '..', 'workflow-bundle.js');

/** Bundles all workflows once; tests and `assay start` reuse the bundle for every worker they create. */
export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    failureConverterPath: require.resolve('../lib/temporal/failure-converter'),
    // Always bundled (one bundle serves every worker); a worker without tracing drops their spans at the sink.
    workflowInterceptorModules: [WORKFLOW_TRACING_INTERCEPTORS],
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => console.warn(m),
      error: (m) => console.error(m),
    },
  });
}

/** The prebuilt bundle when the build wrote one (no webpack at worker start), else a fresh bundle of the sources. */
export async function loadWorkflowBundle(): Promise<WorkflowBundleWithSourceMap | WorkflowBundlePath> {
  return fs.existsSync(PREBUILT_BUNDLE_PATH) ? { codePath: PREBUILT_BUNDLE_PATH } : bundleWorkflows();
}
