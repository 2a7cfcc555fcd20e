import assert from 'node:assert/strict';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../domain/limits';
import { OversizeMessage, relayable, relayableError } from '../../gateway/forward/relayable';

const source = (...secretValues: string[]) => ({ serverId: 's1', serverName: 'hostile', secretValues });

describe('what the gateway relays from an upstream (relayable)', () => {
  it('replaces a secret in strings and in keys, at any depth, and keeps everything else', () => {
    const value = { a: ['x tok-9f2c y', { 'key tok-9f2c': 1, n: 12, flag: true }], untouched: 'plain' };
    assert.deepEqual(relayable(source('tok-9f2c'), value, 'an answer').value, {
      a: ['x [secret] y', { 'key [secret]': 1, n: 12, flag: true }],
      untouched: 'plain',
    });
  });

  it('replaces a secret JSON escapes (quotes, backslashes, control characters) as the client would decode it', () => {
    const secret = 'to"k\\en\n1';
    const { value } = relayable(source(secret), { text: `a${secret}b` }, 'an answer');
    assert.deepEqual(value, { text: 'a[secret]b' });
  });

  it('leaves numbers and literals that spell a secret as they are (the JSON stays valid)', () => {
    const { value } = relayable(source('1234', 'true'), { n: 12345, b: true, s: 'x1234 true' }, 'an answer');
    assert.deepEqual(value, { n: 12345, b: true, s: 'x[secret] [secret]' });
  });

  it('answers the same object when no secret is in it, with its size', () => {
    const value = { text: 'héllo' };
    const relayed = relayable(source('tok-9f2c'), value, 'an answer');
    assert.equal(relayed.value, value);
    assert.equal(relayed.bytes, Buffer.byteLength(JSON.stringify(value)));
  });

  it('refuses a message over gatewayResultBytes, naming it and the limit', () => {
    const big = { text: 'x'.repeat(LIMITS.gatewayResultBytes) };
    assert.throws(
      () => relayable(source(), big, 'notifications/message'),
      (e: OversizeMessage) =>
        e instanceof OversizeMessage &&
        e.bytes === LIMITS.gatewayResultBytes + 11 &&
        /notifications\/message of \d+ bytes from server hostile is over \d+ \(limit gatewayResultBytes\)/.test(
          e.message,
        ),
    );
  });

  it('keeps a JSON-RPC error code and scrubs its message and data; describes any other failure without quoting it', () => {
    const upstream = new McpError(ErrorCode.InvalidParams, 'refused for tok-9f2c', { echoed: ['tok-9f2c'] });
    const relayed = relayableError(source('tok-9f2c'), upstream);
    assert.equal(relayed.code, ErrorCode.InvalidParams);
    assert.equal(relayed.message, `MCP error ${ErrorCode.InvalidParams}: refused for [secret]`);
    assert.deepEqual(relayed.data, { echoed: ['[secret]'] });
    const other = relayableError(source('tok-9f2c'), new Error('body: tok-9f2c'));
    assert.equal(other.code, ErrorCode.InternalError);
    assert.ok(!other.message.includes('tok-9f2c'), other.message);
  });

  it('answers an error over the bound with its code and a message naming the limit', () => {
    const upstream = new McpError(ErrorCode.InvalidParams, 'x'.repeat(LIMITS.gatewayResultBytes));
    const relayed = relayableError(source(), upstream);
    assert.equal(relayed.code, ErrorCode.InvalidParams);
    assert.match(
      relayed.message,
      /^MCP error -32602: an error of \d+ bytes from server hostile .*\(limit gatewayResultBytes\)$/,
    );
  });
});
