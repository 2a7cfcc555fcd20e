import assert from 'node:assert/strict';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../domain/limits';
import { gatewayNotificationsDropped } from '../../lib/metrics';
import { STORM_SIZE, startHostileMcpPeer } from '../helpers/hostile-mcp-peer';
import { startPeerRig, type PeerRig } from '../helpers/hostile-peer-rig';
import type { ServedMcp } from '../helpers/stateful-mcp-http';

/** Resolves once `done()` holds, failing the test with `what` at the deadline. */
async function until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The time the hostile server's storm tool says it sent its last notification. */
const stormSentAt = (result: object): number => Number(/storm sent at (\d+)/.exec(JSON.stringify(result))?.[1]);

const dropped = async (method: string): Promise<number> =>
  (await gatewayNotificationsDropped.get()).values
    .filter((value) => value.labels.method === method)
    .reduce((sum, value) => sum + value.value, 0);

/**
 * Issue 31: an upstream that floods its session with list_changed or resources/updated notifications costs the
 * gateway and its client a bounded number of sends (`gatewayListChangedMs`, `gatewayResourceUpdatesPerSecond`), and
 * the gateway stays responsive meanwhile.
 */
describe('the gateway bounds what an upstream notification storm costs a session', () => {
  let rig: PeerRig<ServedMcp>;
  const seen = { resources: [] as number[], prompts: [] as number[], tools: [] as number[], updates: [] as number[] };
  const last = (times: number[]): number => times[times.length - 1] ?? 0;

  before(async () => {
    rig = await startPeerRig('storm', 'storm-peer-token', startHostileMcpPeer);
    const { client } = rig;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.resources.push(Date.now()));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.prompts.push(Date.now()));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.tools.push(Date.now()));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void seen.updates.push(Date.now()));
  });
  after(() => rig?.close());

  it('relays at most one list_changed of each kind per gatewayListChangedMs, the last after the storm', async () => {
    const started = Date.now();
    let stormEnded = false;
    const storm = rig.client.callTool({ name: 'storm__echo', arguments: { key: 'storm' } });
    void storm.finally(() => (stormEnded = true));
    await until(() => seen.resources.length > 0 || seen.prompts.length > 0, 'no list_changed arrived');
    const pinged = Date.now();
    await rig.client.ping();
    const echoed = await rig.client.callTool({ name: 'storm__echo', arguments: { key: 'echo' } });
    const answeredMs = Date.now() - pinged;
    const answeredDuringStorm = !stormEnded;
    const sentAt = stormSentAt(await storm);
    assert.ok(sentAt > 0, 'the storm tool answered the time of its last notification');
    await until(
      () => last(seen.resources) >= sentAt && last(seen.prompts) >= sentAt,
      'no list_changed of each kind arrived after the storm ended (the last change was lost)',
    );
    const elapsed = Date.now() - started;
    const bound = Math.floor(elapsed / LIMITS.gatewayListChangedMs) + 1;
    for (const [kind, times] of [
      ['resources', seen.resources],
      ['prompts', seen.prompts],
    ] as const)
      assert.ok(
        times.length <= bound,
        `${times.length} ${kind}/list_changed reached the client in ${elapsed} ms for ${STORM_SIZE} sent (at most ${bound})`,
      );
    assert.equal(seen.tools.length, 0, "an upstream's tools/list_changed is not relayed");
    assert.match(JSON.stringify(echoed.content), /echo Bearer/);
    assert.ok(answeredDuringStorm, 'the ping and the tool call were answered while the storm went on');
    assert.ok(answeredMs < 5_000, `a ping and a tool call took ${answeredMs} ms during the storm`);
  });

  it('relays at most gatewayResourceUpdatesPerSecond resources/updated a second and counts the rest dropped', async () => {
    const droppedBefore = await dropped('notifications/resources/updated');
    const started = Date.now();
    await rig.client.callTool({ name: 'storm__echo', arguments: { key: 'updates' } });
    let droppedNow = 0;
    const accounted = async (): Promise<boolean> => {
      droppedNow = (await dropped('notifications/resources/updated')) - droppedBefore;
      return seen.updates.length + droppedNow >= STORM_SIZE;
    };
    const deadline = Date.now() + 30_000;
    while (!(await accounted())) {
      assert.ok(Date.now() < deadline, `${seen.updates.length} relayed and ${droppedNow} dropped of ${STORM_SIZE}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const elapsed = last(seen.updates) - started;
    const bound = LIMITS.gatewayResourceUpdatesPerSecond * (Math.floor(elapsed / 1000) + 1);
    assert.ok(
      seen.updates.length <= bound,
      `${seen.updates.length} resources/updated reached the client in ${elapsed} ms (at most ${bound})`,
    );
    assert.equal(seen.updates.length + droppedNow, STORM_SIZE, 'every update is relayed or counted dropped');
  });
});
