import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startForwardingRig, type ForwardingRig } from '../helpers/forwarding-rig';
import { startReferenceServer, type ReferenceServer } from '../helpers/conformance';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';

/** Follows a list's cursors to the end; answers every item. */
async function all<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
  } while (cursor);
  return items;
}

/**
 * The gateway's forwarding of resources, prompts and completions across two real upstream servers (the conformance
 * suite's reference server and server-everything), each under its own prefix; a client talks to the forwarding
 * server in memory (the HTTP endpoint, auth, tools, sampling and elicitation: gateway-conformance.test.ts).
 */
describe('gateway forwarding across two linked servers', () => {
  let reference: ReferenceServer;
  let everything: EverythingServer;
  let rig: ForwardingRig;
  let client: Client;

  before(async () => {
    [reference, everything] = await Promise.all([startReferenceServer(), startEverythingHttp()]);
    rig = await startForwardingRig([
      ['ref', reference.url],
      ['evr', everything.url],
    ]);
    client = rig.client;
  });
  after(async () => {
    await rig?.close();
    await reference?.stop();
    await everything?.stop();
  });

  it('advertises the union of the upstreams’ capabilities', () => {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps?.resources, { subscribe: true, listChanged: true });
    assert.ok(caps?.prompts && caps.completions && caps.logging);
  });

  it('lists prompts of both servers under their prefixes, page by page, and gets one by its exposed name', async () => {
    const prompts = await all(async (cursor) => {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      return { items: page.prompts.map((p) => p.name), nextCursor: page.nextCursor };
    });
    assert.ok(prompts.includes('ref__test_simple_prompt') && prompts.includes('evr__simple-prompt'), String(prompts));
    assert.ok(prompts.every((name) => name.startsWith('ref__') || name.startsWith('evr__')));
    const got = await client.getPrompt({
      name: 'ref__test_prompt_with_arguments',
      arguments: { arg1: 'x1', arg2: 'y2' },
    });
    assert.deepEqual(got.messages[0].content, { type: 'text', text: "Prompt with arguments: arg1='x1', arg2='y2'" });
    await assert.rejects(client.getPrompt({ name: 'nobody__x' }), (e: McpError) => e.code === ErrorCode.InvalidParams);
  });

  it('routes reads by the URI listed, else by template; an unknown URI and a forged cursor are refused', async () => {
    const resources = await all(async (cursor) => {
      const page = await client.listResources(cursor ? { cursor } : undefined);
      return { items: page.resources.map((r) => r.uri), nextCursor: page.nextCursor };
    });
    assert.ok(
      resources.includes('test://static-text') && resources.includes(`demo://resource/static/document/features.md`),
    );
    const text = await client.readResource({ uri: 'test://static-text' });
    assert.equal(text.contents[0].uri, 'test://static-text');
    const doc = await client.readResource({ uri: 'demo://resource/static/document/features.md' });
    assert.equal(doc.contents[0].uri, 'demo://resource/static/document/features.md');
    // Never listed: routed by the reference server's template test://template/{id}/data.
    const templated = await client.readResource({ uri: 'test://template/7/data' });
    assert.equal(templated.contents[0].uri, 'test://template/7/data');
    await assert.rejects(
      client.readResource({ uri: 'nowhere://x' }),
      (e: McpError) => e.code === ErrorCode.InvalidParams,
    );
    await assert.rejects(
      client.listResources({ cursor: 'forged' }),
      (e: McpError) => e.code === ErrorCode.InvalidParams,
    );
  });

  it('completes a prompt argument on the server behind the prefix', async () => {
    const answer = await client.complete({
      ref: { type: 'ref/prompt', name: 'evr__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    assert.ok(answer.completion.values.includes('Engineering'), JSON.stringify(answer));
  });
});
