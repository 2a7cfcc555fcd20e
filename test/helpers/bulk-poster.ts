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

// Runs in the child: for each request in turn, builds its body (natively: a 32 MiB string would cost the machine more
// than the server's answer), POSTs it and prints one JSON line with the answer.
const POSTER_SOURCE = `
const http = require('node:http');
const build = ({ open, unit, close, bytes }) => {
  const units = Math.floor((bytes - open.length - close.length) / unit.length);
  const body = Buffer.alloc(open.length + units * unit.length + close.length);
  body.write(open);
  body.fill(unit, open.length, body.length - close.length);
  body.write(close, body.length - close.length);
  return body;
};
const post = ({ url, headers, body: spec }) => new Promise((resolve) => {
  const body = build(spec);
  const started = performance.now();
  // An answer may come before the whole body is sent and the server then close the connection: the first outcome counts.
  let reported = false;
  const report = (answer) => reported || ((reported = true), resolve(answer));
  const req = http.request(url, { method: 'POST', headers: { ...headers, 'Content-Length': body.length } }, (res) => {
    const parts = [];
    res.on('data', (part) => parts.push(part));
    res.on('end', () => {
      const text = Buffer.concat(parts).toString();
      let parsed = text;
      try { parsed = JSON.parse(text); } catch {}
      report({ status: res.statusCode, body: parsed, ms: performance.now() - started });
    });
  });
  req.on('error', (error) => setTimeout(() => report({ status: 0, body: error.message, ms: -1 }), 1000));
  req.end(body);
});
(async () => {
  for (const request of JSON.parse(process.argv[1])) process.stdout.write(JSON.stringify(await post(request)) + '\\n');
})();
`;

/** One POST for `postFromChild`: where, with which headers, and the body to build there. */
export interface BulkPost {
  url: string;
  headers: Record<string, string>;
  body: FilledBody;
}

/**
 * Sends the POSTs one after the other from a separate process, so neither building nor sending the bodies takes time
 * from the event loop of the process under test (whose /healthz a prober is timing). Answers them in order.
 */
export function postFromChild(posts: BulkPost[]): Promise<PostedAnswer[]> {
  const child = spawn(process.execPath, ['-e', POSTER_SOURCE, JSON.stringify(posts)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(
            output
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line) as PostedAnswer),
          )
        : reject(new Error(`poster exited ${code}: ${output}`)),
    );
  });
}
