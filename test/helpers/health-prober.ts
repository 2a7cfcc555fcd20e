import { spawn, type ChildProcess } from 'node:child_process';

/** One GET /healthz as the prober saw it: when it was sent (epoch ms), the status (0 when none came) and how long the
 * answer took. */
export interface HealthProbe {
  at: number;
  status: number;
  ms: number;
  error?: string;
}

/** A prober in its own process; `stop` ends it and answers every probe it made. */
export interface HealthProber {
  stop(): Promise<HealthProbe[]>;
}

// Runs in the child: a probe every `interval` ms, each given up after `timeout` ms, one JSON line per probe.
const PROBER_SOURCE = `
const http = require('node:http');
const [url, interval, timeout] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const report = (probe) => process.stdout.write(JSON.stringify(probe) + '\\n');
setInterval(() => {
  const [at, started] = [Date.now(), performance.now()];
  const ms = () => Math.round(performance.now() - started);
  const req = http.get(url, { agent: false, timeout }, (res) => {
    res.resume();
    res.on('end', () => report({ at, status: res.statusCode, ms: ms() }));
  });
  req.on('timeout', () => req.destroy(new Error('no answer within ' + timeout + ' ms')));
  req.on('error', (error) => report({ at, status: 0, ms: ms(), error: error.message }));
}, interval);
`;

/**
 * Probes `url` from a separate process, so a blocked event loop in the process under test shows as a late or missing
 * answer instead of also delaying the prober's own timer.
 */
export function startHealthProber(url: string, intervalMs = 100, timeoutMs = 1_000): HealthProber {
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', PROBER_SOURCE, url, String(intervalMs), String(timeoutMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      return output
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as HealthProbe);
    },
  };
}
