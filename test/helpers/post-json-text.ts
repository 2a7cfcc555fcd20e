import assert from 'node:assert/strict';
import type { Express } from 'express';
import request from 'supertest';

/** POSTs `text` as it is (application/json) and asserts the status; answers the body. */
export async function postJsonText(
  app: Express,
  auth: Record<string, string>,
  url: string,
  text: string,
  status: number,
): Promise<any> {
  const res = await request(app).post(url).set(auth).set('Content-Type', 'application/json').send(text);
  assert.equal(res.status, status, `POST ${url} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
