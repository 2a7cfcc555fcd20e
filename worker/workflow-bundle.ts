import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

/** Bundles all workflows once; tests and `assay start` reuse the bundle for every worker they create. */
export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    failureConverterPath: require.resolve('../lib/temporal/failure-converter'),
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
