import { execFile } from 'node:child_process';
import path from 'node:path';

/** The MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`), a third-party MCP client. */
const INSPECTOR_BIN = require.resolve('@modelcontextprotocol/inspector-cli/build/cli.js');

/** What one run of the Inspector CLI printed and how it exited. */
export interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `mcp-inspector-cli --cli <url> --transport http --header "Authorization: Bearer <token>" <args>` and waits
 * for it (each run is one MCP session: initialize, the method, close). It runs in its own build folder: version 1.0.3
 * finds its package.json by a path relative to the working directory.
 */
export function inspectorCli(url: string, token: string, args: string[]): Promise<InspectorRun> {
  const argv = [
    INSPECTOR_BIN,
    '--cli',
    url,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${token}`,
    ...args,
  ];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { timeout: 60_000, cwd: path.dirname(INSPECTOR_BIN), env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
