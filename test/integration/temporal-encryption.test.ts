import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ActivityFailure, ApplicationFailure, Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { METADATA_ENCODING_KEY } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import request from 'supertest';
import { pingWorkflow } from '../../workflows/ping.workflow';
import { harness } from '../helpers/harness';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';
import { workflowIds } from '../../workflows/temporal-names';

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

/** The decoded `_tracer-data` headers of a history (JSON text maps written with the default converter). */
function tracerHeadersOf(node: unknown, found: Record<string, string>[] = []): Record<string, string>[] {
  if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return found;
  for (const [key, child] of Object.entries(node)) {
    const data =
      key === 'header' ? (child as { fields?: Record<string, Payload> })?.fields?.['_tracer-data']?.data : null;
    if (data) found.push(JSON.parse(Buffer.from(data).toString()) as Record<string, string>);
    else tracerHeadersOf(child, found);
  }
  return found;
}

describe('Temporal history at rest', () => {
  let platform: TestPlatform;
  let connection: Connection;
  let raw: Client;
  let receiver: OtlpReceiver;

  before(async () => {
    const h = await harness();
    receiver = await startOtlpReceiver();
    platform = await createTestPlatform(h, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
    await platform.startWorker();
    connection = await Connection.connect({ address: h.temporalAddress });
    raw = new Client({ connection, namespace: platform.config.TEMPORAL_NAMESPACE });
  });
  after(async () => {
    await connection?.close();
    await platform?.close();
    await receiver?.close();
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

  it("carries only trace and span ids in headers, never a client's tracestate", async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const traceId = crypto.randomBytes(16).toString('hex');
    const vendorState = `tenant-secret-${crypto.randomBytes(8).toString('hex')}`;
    await request(platform.app)
      .delete(`/api/workspaces/${tenant.workspaceId}`)
      .set(tenant.auth)
      .set('traceparent', `00-${traceId}-${crypto.randomBytes(8).toString('hex')}-01`)
      .set('tracestate', `acme=${vendorState}`)
      .expect(202);
    const workflowId = workflowIds.workspaceDeletion(tenant.workspaceId);
    await platform.runtime.temporal.client.workflow.getHandle(workflowId).result();
    const { history, bytes } = await rawHistory(workflowId);
    const headers = tracerHeadersOf(history);
    assert.ok(headers.length >= 2, `trace headers on the start and its activities (${headers.length})`);
    for (const header of headers) {
      assert.deepEqual(Object.keys(header), ['traceparent'], JSON.stringify(header));
      assert.match(header.traceparent, new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    }
    assert.equal(bytes.includes(Buffer.from(vendorState)), false, 'history holds the tracestate');
  });
});
