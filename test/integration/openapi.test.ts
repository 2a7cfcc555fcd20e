import assert from 'node:assert/strict';
import request from 'supertest';
import { API_ROUTES } from '../../api/app';
import { routeErrorStatuses } from '../../api/error-responses';
import { PLATFORM_PATHS } from '../../api/platform-paths';
import { LIMITS } from '../../domain/limits';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';

type Operation = {
  summary?: string;
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
};

describe('OpenAPI document', () => {
  let platform: TestPlatform;
  let document: { openapi: string; paths: Record<string, Record<string, Operation>>; 'x-limits'?: unknown };

  before(async () => {
    platform = await createTestPlatform(await harness());
    document = (await request(platform.app).get('/openapi.json').expect('Content-Type', /json/).expect(200)).body;
  });
  after(async () => platform?.close());

  it('is a valid OpenAPI 3.1 document, served without a token', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    assert.ok(Validator.supportedVersions.has('3.1'));
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
    assert.match(document.openapi, /^3\.1\.\d+$/);
  });

  it('lists exactly the routes of API_ROUTES and the platform routes, API routes with path parameters and bearer security', () => {
    const expected = [
      ...API_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
      ...PLATFORM_PATHS.map((p) => `${p.method.toUpperCase()} ${p.path}`),
    ].sort();
    const listed = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    assert.ok(expected.length > 0);
    assert.deepEqual(listed, expected);
    for (const spec of API_ROUTES) {
      const op = document.paths[spec.path.replace(/:([A-Za-z_]+)/g, '{$1}')][spec.method];
      assert.ok(op.summary, `${spec.method} ${spec.path} has a summary`);
      assert.deepEqual(op.security, [{ bearerAuth: [] }]);
      const pathParams = [...spec.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      assert.deepEqual(
        (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        pathParams.sort(),
      );
    }
  });

  it('documents the request body of every route that takes one', () => {
    for (const spec of API_ROUTES.filter((r) => r.body)) {
      const op = document.paths[spec.path.replace(/:([A-Za-z_]+)/g, '{$1}')][spec.method] as Operation & {
        requestBody?: { content?: Record<string, unknown> };
      };
      assert.ok(op.requestBody?.content?.['application/json'], `${spec.method} ${spec.path} documents its body`);
    }
  });

  it('documents every error status of each API route with the one error body', () => {
    const errorBody = (document as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas
      .ErrorBody as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(errorBody.required, ['error']);
    for (const spec of API_ROUTES) {
      const op = document.paths[spec.path.replace(/:([A-Za-z_]+)/g, '{$1}')][spec.method] as Operation & {
        responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
      };
      const statuses = routeErrorStatuses(spec);
      for (const status of [400, 401, 403, 500]) assert.ok(statuses.includes(status), `${spec.path} ${status}`);
      if (spec.path.includes(':')) assert.ok(statuses.includes(404), `${spec.path} 404`);
      if (spec.body)
        for (const status of [413, 415, 422]) assert.ok(statuses.includes(status), `${spec.path} ${status}`);
      for (const status of statuses) {
        assert.equal(
          op.responses[status]?.content?.['application/json']?.schema?.$ref,
          '#/components/schemas/ErrorBody',
          `${spec.method} ${spec.path} documents ${status}`,
        );
      }
    }
  });

  it('names every bound of domain/limits.ts with its value under x-limits, those on what MCP servers send included', () => {
    assert.deepEqual(document['x-limits'], LIMITS);
    for (const name of ['gatewayResultBytes', 'toolListBytes', 'toolListPages', 'mcpCursorChars', 'requestUrlBytes'])
      assert.ok(name in (document['x-limits'] as object), name);
  });

  it('serves an HTML docs page that links the document and names every path', async () => {
    const res = await request(platform.app).get('/docs').expect('Content-Type', /html/).expect(200);
    assert.match(res.text, /<!doctype html>/i);
    assert.match(res.text, /href="\/openapi\.json"/);
    for (const path of Object.keys(document.paths)) assert.ok(res.text.includes(path), path);
  });
});
