import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { LIMITS } from '../domain/limits';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** A registry with the bearer scheme every route uses. */
export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Personal API token',
  });
  return registry;
}

/**
 * The OpenAPI 3.1 document of every registered route. `x-limits` names every bound of `domain/limits.ts` with its
 * value, those a request's schema cannot state too (what the gateway and the worker accept from an MCP server).
 */
export function generateDocument(registry: OpenAPIRegistry): OpenApiDocument & { 'x-limits': typeof LIMITS } {
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Assay API',
      version: '0.1.0',
      description:
        'Agent evaluation and MCP server catalog. Every `/api` route takes `Authorization: Bearer <token>`. Live eval ' +
        'progress streams over the WebSocket `/ws` (subscribe to a run); the builder pages are at [/builder](/builder).',
    },
  });
  return { ...document, 'x-limits': LIMITS };
}
