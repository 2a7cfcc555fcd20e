import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { cappedFetch, McpResponseTooLargeError } from '../../lib/outbound/mcp/capped-fetch';

const CAP = 1024;

describe('MCP response byte cap', () => {
  let server: http.Server;
  let base: string;
  let bytesWritten = 0;

  before(async () => {
    // /declared/<n> sends n bytes with a Content-Length; /streamed/<n> sends them chunked, 256 bytes at a time.
    server = http.createServer((req, res) => {
      const [, mode, size] = (req.url ?? '').split('/');
      const body = Buffer.alloc(Number(size), 'a');
      if (mode === 'declared') {
        res.writeHead(200, { 'content-length': body.length }).end(body);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      let offset = 0;
      const push = (): void => {
        if (offset >= body.length || res.destroyed) return void res.end();
        const chunk = body.subarray(offset, offset + 256);
        offset += chunk.length;
        bytesWritten += chunk.length;
        res.write(chunk, push);
      };
      push();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const capped = () => cappedFetch(fetch as unknown as FetchLike, { maxBytes: CAP });

  it('passes a body of exactly the cap, declared or streamed', async () => {
    for (const mode of ['declared', 'streamed']) {
      const { fetch: get, overflow } = capped();
      const text = await (await get(`${base}/${mode}/${CAP}`)).text();
      assert.equal(text.length, CAP);
      assert.equal(overflow(), undefined);
    }
  });

  it('refuses a declared length over the cap before reading the body', async () => {
    const { fetch: get, overflow } = capped();
    await assert.rejects(get(`${base}/declared/${CAP + 1}`), McpResponseTooLargeError);
    assert.match(
      String(overflow()?.message),
      /^the server sent a response of 1025 bytes: at most 4194304 bytes \(limit mcpResponseBytes\)$/,
    );
  });

  it('cuts a streamed body at the cap and stops reading from the socket', async () => {
    const { fetch: get, overflow } = capped();
    bytesWritten = 0;
    const response = await get(`${base}/streamed/${CAP * 4096}`);
    await assert.rejects(response.text(), McpResponseTooLargeError);
    assert.ok(overflow() instanceof McpResponseTooLargeError);
    assert.ok(bytesWritten < CAP * 4096, `the server was stopped after ${bytesWritten} bytes`);
  });
});
