import fs from 'node:fs';
import { bundleWorkflows, PREBUILT_BUNDLE_PATH } from './workflow-bundle';

/** `npm run build`'s last step, run from the compiled `dist/`: writes the workflow bundle the worker then loads. */
async function main(): Promise<void> {
  const { code } = await bundleWorkflows();
  fs.writeFileSync(PREBUILT_BUNDLE_PATH, code);
  console.log(`workflow bundle written to ${PREBUILT_BUNDLE_PATH} (${Math.round(code.length / 1024)} KiB)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
