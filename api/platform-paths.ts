import type { OpenAPIRegistry, RouteConfig, ZodContentObject } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorResponses } from './error-responses';
import { jsonPayloads } from './routes/codec.routes';

const json = (schema: z.ZodType): ZodContentObject => ({ 'application/json': { schema } });
const check = z.enum(['ok', 'unreachable']);

/** The routes outside API_ROUTES (health, the document, docs, metrics, codec), described as the API's routes are. */
export const PLATFORM_PATHS: RouteConfig[] = [
  {
    method: 'get',
    path: '/healthz',
    summary: 'Liveness (no token)',
    tags: ['platform'],
    responses: { 200: { description: 'Alive', content: json(z.object({ status: z.literal('ok') })) } },
  },
  {
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: Postgres and Temporal reachable (no token)',
    tags: ['platform'],
    responses: {
      200: {
        description: 'Ready',
        content: json(z.object({ status: z.literal('ready'), checks: z.object({ postgres: check, temporal: check }) })),
      },
      503: {
        description: 'Not ready: a check names what is unreachable',
        content: json(
          z.object({ status: z.literal('not_ready'), checks: z.object({ postgres: check, temporal: check }) }),
        ),
      },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (no token)',
    tags: ['platform'],
    responses: { 200: { description: 'OpenAPI 3.1', content: json(z.record(z.string(), z.unknown())) } },
  },
  {
    method: 'get',
    path: '/schemas/eval-set.json',
    summary: 'The JSON Schema (draft 2020-12) of an eval set file (no token)',
    tags: ['platform'],
    responses: { 200: { description: 'JSON Schema', content: json(z.record(z.string(), z.unknown())) } },
  },
  {
    method: 'get',
    path: '/oauth/client-metadata.json',
    summary: "Assay's OAuth Client ID Metadata Document (its client_id is this URL under ASSAY_PUBLIC_URL; no token)",
    tags: ['platform'],
    responses: { 200: { description: 'OAuth client metadata', content: json(z.record(z.string(), z.unknown())) } },
  },
  ...(['/oauth/callback/{server_id}', '/oauth/callback'] as const).map((path): RouteConfig => ({
    method: 'get',
    path,
    summary:
      path === '/oauth/callback'
        ? "The shared OAuth redirect target (the Client ID Metadata Document's), as the server's own below"
        : 'The OAuth redirect target of POST …/mcp-servers/{id}/authorize: checks state (single use, expires, bound ' +
          'to this server, workspace and person), has a worker exchange the code (at the redirect URI and issuer ' +
          'asked, RFC 9207 `iss`); answers a small HTML page (no token)',
    tags: ['platform'],
    ...(path === '/oauth/callback' ? {} : { request: { params: z.object({ server_id: z.string() }) } }),
    responses: {
      200: { description: 'connected', content: { 'text/html': { schema: z.string() } } },
      400: {
        description: "refused (unknown, used or expired state; another server's state; denied)",
        content: { 'text/html': { schema: z.string() } },
      },
      403: { description: 'the server or the person is gone', content: { 'text/html': { schema: z.string() } } },
      502: {
        description: 'the token exchange failed or was refused (redirect URI or issuer not the one asked)',
        content: { 'text/html': { schema: z.string() } },
      },
    },
  })),
  {
    method: 'get',
    path: '/schemas/cassette.json',
    summary: "The JSON Schema (draft 2020-12) of a cassette file, an eval set's recorded tool responses (no token)",
    tags: ['platform'],
    responses: { 200: { description: 'JSON Schema', content: json(z.record(z.string(), z.unknown())) } },
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'This document as an HTML page (no token)',
    tags: ['platform'],
    responses: { 200: { description: 'HTML', content: { 'text/html': { schema: z.string() } } } },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics: Bearer METRICS_TOKEN, or no token on an api only loopback reaches (else 404)',
    tags: ['platform'],
    // Either requirement: the token, or none (`{}`) while METRICS_TOKEN is unset and only loopback reaches the api.
    security: [{ bearerAuth: [] }, {}],
    responses: {
      200: { description: 'The Prometheus text format', content: { 'text/plain': { schema: z.string() } } },
      ...errorResponses([401, 404]),
    },
  },
  ...(['encode', 'decode'] as const).map((direction): RouteConfig => ({
    method: 'post',
    path: `/codec/${direction}`,
    summary: `Temporal Web UI remote codec: ${direction} payloads (404 while TEMPORAL_CODEC_ORIGINS is empty)`,
    tags: ['platform'],
    security: [{ bearerAuth: [] }],
    request: { body: { content: json(jsonPayloads) } },
    responses: {
      200: { description: `The payloads, ${direction}d`, content: json(jsonPayloads) },
      ...errorResponses([400, 401, 403, 404, 413, 415, 422, 500]),
    },
  })),
];

/** Registers PLATFORM_PATHS in the document; any of them answers 414 to a long URL, 431 to long headers. */
export function registerPlatformPaths(registry: OpenAPIRegistry): void {
  for (const path of PLATFORM_PATHS)
    registry.registerPath({ ...path, responses: { ...path.responses, ...errorResponses([414, 431]) } });
}
