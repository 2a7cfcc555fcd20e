import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ActivityFailure, ApplicationFailure, Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { METADATA_ENCODING_KEY } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { pingWorkflow } from '../../workflows/ping.workflow';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';

type History = temporal.api.history.v1.IHistory;
type Payload = temporal.api.common.v1.IPayload;

/** Every payload anywhere in a history, search attributes aside (Temporal indexes those in plain text by design). */
function payloadsOf(node: unknown, found: Payload[] = []): Payload[] {
  if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return found;
  if ('data' in node && 'metadata' in node) found.push(node as Payload);
  for (const [key, child] of Object.entries(node)) if (!UNSEALED.includes(key)) payloadsOf(child, found);
  return found;
}

// Search attributes must stay readable (the UI lists runs by them). Headers carry only the W3C trace context that the
// OpenTelemetry interceptors propagate (`_tracer-data`: trace and span ids), written by the SDK with the default
// converter; `headerKeysOf` checks that nothing else ever rides there.
const UNSEALED = ['searchAttributes', 'header'];

function headerKeysOf(node: unknown, found = new Set<string>()): Set<string> {
  if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return found;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'header' && child && typeof child === 'object' && 'fields' in child)
      for (const field of Object.keys((child as { fields: object }).fields ?? {})) found.add(field);
    else headerKeysOf(child, found);
  }
  return found;
}

describe('Temporal history at rest', () => {
  let platform: TestPlatform;
  let connection: Connection;
  let raw: Client;

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h);
    await platform.startWorker();
    connection = await Connection.connect({ address: h.temporalAddress });
    raw = new Client({ connection, namespace: platform.config.TEMPORAL_NAMESPACE });
  });
  after(async () => {
    await connection?.close();
    await platform?.close();
  });

  async function rawHistory(workflowId: string): Promise<{ bytes: Buffer; history: History }> {
    const history = await raw.workflow.getHandle(workflowId).fetchHistory();
    return { bytes: Buffer.from(temporal.api.history.v1.History.encode(history).finish()), history };
  }

  function assertSealed(history: History, bytes: Buffer, message: string): void {
    for (const key of headerKeysOf(history)) assert.equal(key, '_tracer-data', `header ${key} in history`);
    const payloads = payloadsOf(history);
    assert.ok(payloads.length >= 2, `history holds payloads (${payloads.length})`);
    for (const payload of payloads) {
      assert.equal(Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? []).toString(), 'binary/encrypted');
    }
    for (const form of [message, Buffer.from(message).toString('base64'), Buffer.from(message).toString('hex')]) {
      assert.equal(bytes.includes(Buffer.from(form)), false, `history holds ${form.slice(0, 12)}…`);
    }
  }

  it('keeps a workflow input and result encrypted, while the codec client reads them back', async () => {
    const message = `ping-secret-${crypto.randomBytes(12).toString('hex')}`;
    const workflowId = `ping:enc-${crypto.randomUUID()}`;
    const result = await platform.runtime.temporal.client.workflow.execute(pingWorkflow, {
      taskQueue: platform.config.TEMPORAL_TASK_QUEUE,
      workflowId,
      args: [{ message }],
    });
    assert.equal(result.message, message);
    const { history, bytes } = await rawHistory(workflowId);
    assert.ok(
      history.events?.some((e) => e.workflowExecutionCompletedEventAttributes),
      'the workflow completed',
    );
    assertSealed(history, bytes, message);
    await assert.rejects(
      raw.workflow.getHandle(workflowId).result(),
      'a client without the codec cannot read the result',
    );
  });

  it('keeps a failure message encrypted, while the codec client sees the real one', async () => {
    const message = `fail-secret-${crypto.randomBytes(12).toString('hex')}`;
    const workflowId = `ping:enc-fail-${crypto.randomUUID()}`;
    const run = platform.runtime.temporal.client.workflow.execute(pingWorkflow, {
      taskQueue: platform.config.TEMPORAL_TASK_QUEUE,
      workflowId,
      args: [{ message, fail: true }],
    });
    await assert.rejects(run, (error: unknown) => {
      assert.ok(error instanceof WorkflowFailedError);
      assert.ok(error.cause instanceof ActivityFailure);
      assert.ok(error.cause.cause instanceof ApplicationFailure);
      assert.equal(error.cause.cause.message, `ping failed: ${message}`);
      assert.equal(error.cause.cause.type, 'PingFailure');
      return true;
    });
    const { history, bytes } = await rawHistory(workflowId);
    const failed = history.events?.find((e) => e.activityTaskFailedEventAttributes)?.activityTaskFailedEventAttributes;
    assert.ok(failed?.failure, 'the activity failure is in history');
    assert.equal(failed.failure.message, 'Encoded failure');
    assert.ok(failed.failure.encodedAttributes, 'message and stack travel as an encoded payload');
    assert.ok(
      history.events?.some((e) => e.workflowExecutionFailedEventAttributes),
      'the workflow failed',
    );
    assertSealed(history, bytes, message);
  });
});
