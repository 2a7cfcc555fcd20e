import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import net from 'node:net';

/** Asks the OS for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Thrown by a `waitFor` probe to stop waiting at once (the awaited process exited); other probe errors retry. */
export class WaitAborted extends Error {}

const retryUnlessAborted = (error: unknown): boolean => {
  if (error instanceof WaitAborted) throw error;
  return false;
};

// A probe that never settles (a socket accepted but never answered) counts as a failed attempt.
async function attempt(probe: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)));
  try {
    return await Promise.race([probe(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` (each attempt bounded to 5 s) until it resolves true or the deadline passes; a throw aborts. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await attempt(() => probe().catch(retryUnlessAborted), Math.min(5_000, Math.max(100, deadline - Date.now()))))
      return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True when something accepts TCP connections on host:port. */
export async function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A child process we own, with its output kept for error messages. */
export interface ManagedProcess {
  readonly child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<void>;
}

/** Spawns a long-running service; output is buffered (bounded) rather than printed. */
export function startProcess(command: string, args: string[], options: SpawnOptions = {}): ManagedProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let buffer = '';
  const keep = (chunk: Buffer): void => {
    buffer = (buffer + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => buffer,
    async stop(signal = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
