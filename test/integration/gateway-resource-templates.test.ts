import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LIMITS } from '../../domain/limits';
import { startForwardingRig, type ForwardingRig } from '../helpers/forwarding-rig';
import type { ServedMcp } from '../helpers/stateful-mcp-http';
import { startTemplateMcpPeer } from '../helpers/template-mcp-peer';

/** Runs `work` while a timer ticks every 10 ms; answers the longest the event loop went without a tick, in ms. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    longest = Math.max(longest, performance.now() - last);
    last = performance.now();
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return Math.max(longest, performance.now() - last);
}

/**
 * Routing of a resource URI no server listed by the upstreams' templates, across two real linked servers (the only
 * case where templates are consulted), one of them hostile: its template is one a backtracking RegExp takes seconds
 * on. A client talks to the forwarding server in memory, as gateway-forwarding.test.ts does.
 */
describe('gateway resource templates from a hostile upstream', () => {
  let peers: ServedMcp[];
  let rig: ForwardingRig;
  let client: Client;

  before(async () => {
    peers = [
      await startTemplateMcpPeer('hostile', ['h://{a}{b}{c}{d}x']),
      await startTemplateMcpPeer('notes', ['note://{id}']),
    ];
    rig = await startForwardingRig([
      ['hostile', peers[0].url],
      ['notes', peers[1].url],
    ]);
    client = rig.client;
  });
  after(async () => {
    await rig?.close();
    for (const peer of peers ?? []) await peer.close();
  });

  it('refuses an unlisted URI the hostile template nearly matches promptly, the process staying responsive', async () => {
    for (const length of [400, 2_000, 5_000]) {
      const uri = `h://${'a'.repeat(length)}`;
      let refusal: unknown;
      const stall = await longestStall(() => client.readResource({ uri }).catch((error: unknown) => (refusal = error)));
      assert.ok(stall < 1_000, `a read of ${length} characters held the event loop for ${Math.round(stall)} ms`);
      assert.match(String(refusal), /-32602/);
      if (length > LIMITS.resourceUriChars) assert.match(String(refusal), /limit resourceUriChars/);
    }
  });

  it('still routes a URI by the template that matches it', async () => {
    const read = await client.readResource({ uri: 'note://42' });
    assert.deepEqual(read.contents, [{ uri: 'note://42', text: 'notes read note://42' }]);
    const hostile = await client.readResource({ uri: 'h://abcdx' });
    assert.deepEqual(hostile.contents, [{ uri: 'h://abcdx', text: 'hostile read h://abcdx' }]);
  });
});
