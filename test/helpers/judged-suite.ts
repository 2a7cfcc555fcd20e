import { harness } from './harness';
import { createTestPlatform, type TestPlatform } from './platform';
import { startScriptedLlm, type ScriptHandler, type ScriptedLlm } from './scripted-llm';

/** A suite's platform (api and one worker, egress to loopback allowed) and its scripted judge. */
export interface JudgedSuite {
  platform: TestPlatform;
  llm: ScriptedLlm;
}

/** Registers mocha hooks that start the platform with `env` and a judge answering with `handler`, and close both. */
export function judgedSuite(handler: ScriptHandler, env: NodeJS.ProcessEnv = {}): JudgedSuite {
  const suite = {} as JudgedSuite;
  before(async () => {
    suite.platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1', ...env } });
    await suite.platform.startWorker();
    suite.llm = await startScriptedLlm(handler);
  });
  after(async () => {
    await suite.llm?.close();
    await suite.platform?.close();
  });
  return suite;
}
