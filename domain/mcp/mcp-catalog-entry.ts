import { z } from 'zod';
import { SECRET_NAME } from './mcp-headers';
import { unpinnedCommandProblem } from './package-pin';

/** Slugs name catalog entries and servers: lower-case letters, digits and inner hyphens. */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export const MCP_TRANSPORTS = ['http', 'stdio_curated'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

const secretName = z.string().regex(SECRET_NAME, 'must be an upper-case secret name such as API_KEY');
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** The JSON-schema-style description of a server's config; `default`s fill what the user leaves out. */
export const configSchemaSchema = z
  .object({
    type: z.literal('object'),
    properties: z
      .record(z.string().max(200), z.record(z.string(), z.unknown()))
      .refine((properties) => Object.keys(properties).length <= 64, 'at most 64 properties'),
    required: z.array(z.string().max(200)).max(64).default([]),
  })
  .passthrough();

const entryFields = {
  name: z.string().regex(SLUG, 'must be a slug (lower-case letters, digits, hyphens)'),
  label: z.string().trim().min(1).max(120),
  category: z.string().max(60).default(''),
  image: z.string().url().max(2000),
  description: z.string().max(2000).default(''),
  config_schema: configSchemaSchema.optional(),
  required_secrets: z.array(secretName).max(16).default([]),
};

/**
 * A catalog entry as the operator's catalog file writes it: stdio entries carry argv and a secret → env mapping, and
 * a command that fetches a package names its exact version.
 */
export const operatorCatalogEntrySchema = z
  .object({
    ...entryFields,
    transport: z.enum(MCP_TRANSPORTS),
    command: z.array(z.string().min(1)).min(1).optional(),
    env: z.record(envName, secretName).optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.transport === 'stdio_curated' && !entry.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'is required for stdio_curated' });
    if (entry.transport === 'http' && (entry.command || entry.env))
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'only stdio_curated entries run commands' });
    const unpinned = entry.command && unpinnedCommandProblem(entry.command);
    if (unpinned) ctx.addIssue({ code: 'custom', path: ['command'], message: unpinned });
    const undeclared = Object.values(entry.env ?? {}).find((name) => !entry.required_secrets.includes(name));
    if (undeclared)
      ctx.addIssue({ code: 'custom', path: ['env'], message: `maps ${undeclared}, which is not in required_secrets` });
  });

/** The operator's catalog file. */
export const operatorCatalogFileSchema = z.object({ entries: z.array(operatorCatalogEntrySchema) });

/** A workspace admin's own entry: `http` only, since stdio entries run commands on our machines. */
export const workspaceCatalogEntrySchema = z.object({ ...entryFields, transport: z.literal('http') });

export type OperatorCatalogEntry = z.infer<typeof operatorCatalogEntrySchema>;
export type ConfigSchema = z.infer<typeof configSchemaSchema>;

/** The config schema an entry gets when it declares none: an http entry needs a url, a stdio entry nothing. */
export function defaultConfigSchema(transport: McpTransport): ConfigSchema {
  if (transport === 'stdio_curated') return { type: 'object', properties: {}, required: [] };
  return {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri' },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['url'],
  };
}
