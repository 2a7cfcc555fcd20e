import { spawn } from 'node:child_process';

/** A body of about `bytes` bytes: `unit` repeated between `open` and `close` (built where it is sent). */
export interface FilledBody {
  open: string;
  unit: string;
  close: string;
  bytes: number;
}

/** What the poster saw: the status, the parsed answer, and ms from the first byte sent to the whole answer. */
export interface PostedAnswer {
  status: number;
  body: any;
  ms: number;
}

// Runs in the child: builds the body, POSTs it with `headers`, prints one JSON line with the answer.
const POSTER_SOURCE = `
const http = require('node:http');
const { url, headers, open, unit, close, bytes } = JSON.parse(process.argv[1]);
const body = Buffer.from(open + unit.repeat(Math.floor((bytes - open.length - close.length) / unit.length)) + close);
const started = performance.now();
const req = http.request(url, { method: 'POST', headers: { ...headers, 'Content-Length': body.length } }, (res) => {
  const parts = [];
  res.on('data', (part) => parts.push(part));
  res.on('end', () => {
    const text = Buffer.concat(parts).toString();
    let parsed = text;
    try { parsed = JSON.parse(text); } catch {}
    process.stdout.write(JSON.stringify({ status: res.statusCode, body: parsed, ms: performance.now() - started }));
  });
});
req.on('error', (error) => process.stdout.write(JSON.stringify({ status: 0, body: error.message, ms: -1 })));
req.end(body);
`;

/**
 * POSTs a large body from a separate process, so neither building nor sending it takes time from the event loop of the
 * process under test (whose /healthz a prober is timing).
 */
export function postFromChild(url: string, headers: Record<string, string>, body: FilledBody): Promise<PostedAnswer> {
  const child = spawn(process.execPath, ['-e', POSTER_SOURCE, JSON.stringify({ url, headers, ...body })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output) as PostedAnswer) : reject(new Error(`poster exited ${code}: ${output}`)),
    );
  });
}
