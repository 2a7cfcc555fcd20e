import type { RootHookObject } from 'mocha';
import { stopHarness } from './harness';

/** Root hooks: shared real services are started lazily by test/helpers/harness.ts and stopped here. */
export const mochaHooks: RootHookObject = {
  async afterAll() {
    await stopHarness();
  },
};
