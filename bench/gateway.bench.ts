import { gatewayPeers, type GatewayPeers } from './gateway-bench-setup';
import { callMany, closeSessions, merge, openSessions, quantile, type McpPath, type Sample } from './mcp-load';

const CONCURRENCIES = [1, 64];
const WARM_UP_CALLS = 500;
// Each concurrency's calls are measured in this many rounds per path, the paths alternating round by round, so a
// burst of machine noise falls on both rather than on whichever path happened to be running.
const ROUNDS = 10;

const ms = (value: number) => value.toFixed(2).padStart(10);
const perSecond = (sample: Sample) => (sample.latencies.length * 1000) / sample.wallMs;

/** The same SDK client code on both paths: sessions opened, warmed up, then `calls` calls in alternating rounds. */
async function measure(paths: McpPath[], concurrency: number, calls: number): Promise<Sample[]> {
  const sessions = await Promise.all(paths.map((path) => openSessions(path, concurrency)));
  try {
    for (const [i, path] of paths.entries()) await callMany(path, sessions[i], WARM_UP_CALLS);
    const samples: Sample[][] = paths.map(() => []);
    const perRound = Math.ceil(calls / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which path goes first too, so neither always runs right after the other's burst.
      const order = round % 2 ? [...paths.keys()].reverse() : [...paths.keys()];
      for (const i of order) samples[i].push(await callMany(paths[i], sessions[i], perRound));
    }
    return samples.map(merge);
  } finally {
    await Promise.all(sessions.map(closeSessions));
  }
}

function printTable(concurrency: number, direct: Sample, gateway: Sample, ping: Sample): void {
  const row = (label: string, s: Sample) =>
    `  ${label.padEnd(14)}${ms(quantile(s.latencies, 0.5))}${ms(quantile(s.latencies, 0.99))}${perSecond(s).toFixed(0).padStart(12)}`;
  console.log(`  ${concurrency} concurrent session(s), ${direct.latencies.length} calls per path:`);
  console.log(`  ${''.padEnd(14)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'calls/s'.padStart(12)}`);
  console.log(row('direct', direct));
  console.log(row('gateway', gateway));
  console.log(row('gateway ping', ping));
  const added = (q: number) => quantile(gateway.latencies, q) - quantile(direct.latencies, q);
  console.log(
    `  added: p50 ${added(0.5).toFixed(2)} ms, p99 ${added(0.99).toFixed(2)} ms; throughput gateway/direct = ${(perSecond(gateway) / perSecond(direct)).toFixed(2)}`,
  );
}

/**
 * `npm run bench -- gateway`: the MCP SDK client calling server-everything's `get-sum` directly and through the
 * gateway (`/mcp/agents/{agent}`, a service token with `gateway:use`), BENCH_GATEWAY_CALLS calls per path (10,000 by
 * default) at 1 and at 64 concurrent sessions: p50/p99 latency of each path, the latency the gateway adds and the
 * throughput ratio gateway/direct (aim: ≤ 2 ms added at p50, ≥ 0.8 of direct throughput at 64). A third path, `ping`
 * through the gateway, shows the gateway's own cost per request (what it does before any upstream hop).
 */
export async function gatewayBench(): Promise<void> {
  const calls = Number(process.env.BENCH_GATEWAY_CALLS ?? 10_000);
  let peers: GatewayPeers | undefined;
  try {
    peers = await gatewayPeers();
    console.log(`gateway: get-sum, ${calls} calls per path and concurrency, in ${ROUNDS} alternating rounds`);
    for (const concurrency of CONCURRENCIES) {
      const paths = [peers.direct, peers.gateway, peers.gatewayPing];
      const [direct, gateway, ping] = await measure(paths, concurrency, calls);
      printTable(concurrency, direct, gateway, ping);
    }
  } finally {
    await peers?.close();
  }
}
