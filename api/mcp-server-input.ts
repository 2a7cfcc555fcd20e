import { z } from 'zod';
import type { McpCatalogEntry, McpServerConfig } from '../db/tables/mcp.table';
import { boundedString, withinBytes } from '../domain/bounded-schemas';
import { headerIssues, SECRET_NAME } from '../domain/mcp/mcp-headers';
import { secretMove } from '../domain/mcp/secret-reentry';
import { invalidField } from './field-errors';
import { secretRequired } from './secret-required';

/** The secret name a custom server's `secret_value` is stored (and referenced in headers) under. */
export const CUSTOM_SECRET_NAME = 'SECRET_VALUE';

const secretValue = z.string().min(1).max(16_384);
export const serverConfigBody = withinBytes(
  z
    .object({
      url: z.string().max(2048).optional(),
      headers: z
        .record(z.string(), z.string().max(4096))
        .refine((h) => Object.keys(h).length <= 32, 'at most 32 headers')
        .optional(),
    })
    .strict(),
  'mcpConfigBytes',
);
export const serverSecretsBody = {
  secret_value: secretValue
    .optional()
    .describe('the secret; for a catalog entry needing several, a JSON object string of them ({"NAME": "value", …})'),
  secrets: z.record(z.string().regex(SECRET_NAME, 'must be an upper-case secret name'), secretValue).optional(),
};

/** OAuth on an http server: the grant, optional pre-registered credentials (the secret goes to the vault), scopes. */
export const serverAuthBody = z
  .object({
    type: z
      .enum(['oauth', 'oauth_client_credentials'])
      .describe('oauth: a person authorizes (POST …/authorize); oauth_client_credentials: machine to machine'),
    client_id: boundedString('mcpOauthClientIdChars').min(1).optional().describe('a pre-registered client id'),
    client_secret: secretValue.optional().describe('its secret (vault only; never answered)'),
    scopes: boundedString('mcpOauthScopesChars')
      .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'must be space-separated OAuth scopes')
      .optional()
      .describe("space-separated scopes; default: the server's challenge, else its scopes_supported, else none"),
  })
  .strict();

/** On update: the pre-registered client's secret given again (a new url's authorization server, or a rotation). */
export const serverAuthChangeBody = z
  .object({ client_secret: secretValue.describe('the pre-registered client secret (vault only; never answered)') })
  .strict();

/**
 * A pre-registered OAuth client secret goes to the token endpoint the url leads to: a url of another scheme, host or
 * port needs it again in the same request (422 `secret_required`), like any stored secret.
 */
export function requireClientSecretToMove(before: McpServerConfig, after: McpServerConfig, given: boolean): void {
  const move = given ? undefined : secretMove({ url: before.url }, { url: after.url });
  if (move) throw secretRequired(move.field, move.reason, 'auth.client_secret', ['client_secret']);
}

/** Checks an `auth` block against the transport: OAuth is for http; client credentials need both credentials. */
export function validateServerAuth(transport: string, auth: z.infer<typeof serverAuthBody> | undefined): void {
  if (!auth) return;
  if (transport !== 'http') throw invalidField('auth', 'OAuth is for http servers');
  if (auth.client_secret !== undefined && auth.client_id === undefined)
    throw invalidField('auth.client_id', 'is required with auth.client_secret');
  if (auth.type === 'oauth_client_credentials') {
    if (auth.client_id === undefined) throw invalidField('auth.client_id', 'is required for oauth_client_credentials');
    if (auth.client_secret === undefined)
      throw invalidField('auth.client_secret', 'is required for oauth_client_credentials');
  }
}

/** What a create or update asks for, before checks against the catalog entry. */
export interface ServerInputRequest {
  entry: McpCatalogEntry | undefined;
  transport: string;
  config: z.infer<typeof serverConfigBody> | undefined;
  secret_value?: string;
  secrets?: Record<string, string>;
  /** On update: the stored config and secret names, kept where the request leaves them out. */
  existing?: { config: McpServerConfig; secretNames: string[] };
}

/** A validated server definition: non-secret config for Postgres, secret values for the vault only. */
export interface ServerInput {
  config: McpServerConfig;
  secretNames: string[];
  secrets: Record<string, string> | undefined;
}

function schemaDefault(entry: McpCatalogEntry | undefined, key: 'url' | 'headers'): unknown {
  const properties = (entry?.config_schema as { properties?: Record<string, { default?: unknown }> } | undefined)
    ?.properties;
  return properties?.[key]?.default;
}

// An entry needing several secrets takes `secret_value` as a JSON object string of them (the spec's one field).
function secretsFromJson(entry: McpCatalogEntry, text: string): Record<string, string> {
  const shape = `a JSON object string of ${entry.required_secrets.join(', ')}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidField('secret_value', `is not valid JSON: ${entry.name} needs ${shape}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidField('secret_value', `must be ${shape}`);
  const values = parsed as Record<string, unknown>;
  for (const name of Object.keys(values)) {
    // A key is echoed in the message only when it is a secret name (a pasted value never reaches an error).
    if (!entry.required_secrets.includes(name))
      throw invalidField(
        SECRET_NAME.test(name) ? `secret_value.${name}` : 'secret_value',
        `holds a key that is not a secret of ${entry.name} (${entry.required_secrets.join(', ')})`,
      );
    const value = values[name];
    if (typeof value !== 'string' || value === '')
      throw invalidField(`secret_value.${name}`, 'must be a non-empty string');
  }
  return values as Record<string, string>;
}

function secretsOf(request: ServerInputRequest): Record<string, string> | undefined {
  const { entry, secret_value: single } = request;
  if (single !== undefined && request.secrets !== undefined)
    throw invalidField('secret_value', 'give either secret_value or secrets, not both');
  const required = entry?.required_secrets ?? [];
  if (single !== undefined) {
    if (!entry) return { [CUSTOM_SECRET_NAME]: single };
    if (required.length === 0) throw invalidField('secret_value', `${entry.name} needs no secret`);
    if (required.length === 1) return { [required[0]]: single };
  }
  const [field, secrets] =
    single !== undefined && entry ? ['secret_value', secretsFromJson(entry, single)] : ['secrets', request.secrets];
  if (secrets === undefined) {
    if (required.length > 0 && !request.existing)
      throw invalidField(required.length === 1 ? 'secret_value' : `secrets.${required[0]}`, 'is required');
    return undefined;
  }
  if (entry) {
    const missing = required.find((name) => secrets[name] === undefined);
    if (missing) throw invalidField(`${field}.${missing}`, 'is required');
    const extra = Object.keys(secrets).find((name) => !required.includes(name));
    if (extra) throw invalidField(`${field}.${extra}`, `is not a secret of ${entry.name}`);
  }
  return secrets;
}

function validUrl(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') throw invalidField('config.url', 'is required for http servers');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField('config.url', 'is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidField('config.url', 'must be an http or https URL');
  if (url.password !== '') throw invalidField('config.url', 'must not contain a password: store it as a secret');
  return url.toString();
}

/** Checks transport, url, headers and secrets of a create or update; throws the 422 naming the field. */
export function validateServerInput(request: ServerInputRequest): ServerInput {
  const { entry, transport } = request;
  if (entry && transport !== entry.transport)
    throw invalidField('transport', `must be ${entry.transport} for catalog entry ${entry.name}`);
  if (!entry && transport !== 'http')
    throw invalidField(
      'transport',
      'a custom server must use http; stdio_curated servers come from the curated catalog',
    );
  const secrets = secretsOf(request);
  const secretNames = secrets ? Object.keys(secrets).sort() : (request.existing?.secretNames ?? []);
  if (transport === 'stdio_curated') {
    if (request.config?.url !== undefined || request.config?.headers !== undefined)
      throw invalidField('config', 'stdio_curated servers take no url or headers');
    return { config: {}, secretNames, secrets };
  }
  const url = validUrl(
    request.config?.url ?? request.existing?.config.url ?? (schemaDefault(entry, 'url') as string | undefined),
  );
  const headers =
    request.config?.headers ??
    request.existing?.config.headers ??
    (schemaDefault(entry, 'headers') as Record<string, string> | undefined) ??
    {};
  const [issue] = headerIssues(headers, entry?.required_secrets ?? secretNames);
  if (issue) throw invalidField(`config.headers.${issue.header}`, issue.message);
  requireSecretsToMove(request, secrets, { url, headers });
  return { config: { url, headers }, secretNames, secrets };
}

// Given secrets replace every stored one, so only an update that keeps the stored secrets can move them.
function requireSecretsToMove(
  request: ServerInputRequest,
  secrets: Record<string, string> | undefined,
  next: McpServerConfig,
): void {
  const stored = request.existing?.secretNames ?? [];
  if (!request.existing || secrets !== undefined || stored.length === 0) return;
  const move = secretMove(request.existing.config, next);
  if (!move) return;
  const single = request.entry ? request.entry.required_secrets.length === 1 : stored.join() === CUSTOM_SECRET_NAME;
  const give = single ? 'secret_value' : 'secrets';
  throw secretRequired(move.field, move.reason, give, stored);
}
