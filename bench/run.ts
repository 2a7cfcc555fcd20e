import { stopHarness } from '../test/helpers/harness';
import { aimdBench } from './eval-aimd.bench';
import { evalBench } from './eval.bench';
import { evalScaleOutBench } from './eval-scale-out.bench';
import { gatewayBench } from './gateway.bench';
import { judgeCacheBench } from './judge-cache.bench';
import { liveBench } from './live.bench';
import { multiTurnBench } from './multiturn.bench';
import { scenarioBench } from './scenario.bench';

const BENCHES: Record<string, () => Promise<void>> = {
  eval: evalBench,
  'scale-out': evalScaleOutBench,
  aimd: aimdBench,
  'judge-cache': judgeCacheBench,
  multiturn: multiTurnBench,
  scenario: scenarioBench,
  live: liveBench,
  gateway: gatewayBench,
};

/** `npm run bench [-- name…]`: runs the named benchmarks (all by default) on real services started for the run. */
async function main(): Promise<void> {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
  const unknown = names.filter((name) => !BENCHES[name]);
  if (unknown.length)
    throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  try {
    for (const name of names) await BENCHES[name]();
  } finally {
    await stopHarness();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
