import type request from 'supertest';

/** Polls a flow run through `get` until it is completed, failed or cancelled, answering the last response at the deadline. */
export async function waitForFlowRunEnd(
  get: (path: string) => Promise<request.Response>,
  runId: string,
  timeoutMs = 30_000,
): Promise<request.Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await get(`/api/v1/flow-runs/${runId}`);
    if (['completed', 'failed', 'cancelled'].includes(res.body.status) || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
