import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIMITS } from '../../domain/limits';
import { createProviderClient, ProviderCallError } from '../../lib/outbound/llm/provider-client';

// Past the cap by a little: the body a declared length promises is never read.
const OVER = LIMITS.providerResponseBytes + 1;

describe('provider answer byte cap', () => {
  let server: http.Server;
  let baseUrl: string;
  let requests = 0;

  before(async () => {
    // Declares a completion over the cap, sends a small part of it, and holds the socket open.
    server = http.createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(OVER) });
      res.write('{"choices":[{"message":{"content":"');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses a declared length over providerResponseBytes unread, naming response_too_large, and asks once', async () => {
    const client = createProviderClient({
      provider: 'openai',
      baseUrl,
      apiKey: 'sk-unit-cap',
      fetch: fetch as never,
      timeoutMs: 5_000,
      maxRetries: 4,
    });
    requests = 0;
    const failure = await client.chatJson({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).then(
      () => assert.fail('the answer was accepted'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ProviderCallError);
    assert.equal(failure.kind, 'too_large');
    assert.equal(
      failure.message,
      `the openai endpoint sent a response of ${OVER} bytes (response_too_large): ` +
        `at most ${LIMITS.providerResponseBytes} bytes (limit providerResponseBytes)`,
    );
    assert.equal(requests, 1, 'the SDK did not ask again');
  });
});
