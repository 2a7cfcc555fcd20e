import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * What Assay's client declares: form elicitation only (never URL mode: nobody is there to open a link), with the
 * SDK applying a schema's defaults to the fields an accepted answer leaves out (SEP-1034).
 */
export const ELICITATION_CAPABILITY = { form: { applyDefaults: true } } as const;

/**
 * The answer to a server's elicitation during a flow or an agent run, where no person can be asked: accept with the
 * schema's defaults when every required field has one (SEP-1034), else decline. Never waits.
 */
export function answerElicitation(params: ElicitRequest['params']): ElicitResult {
  if (params.mode === 'url' || !('requestedSchema' in params)) return { action: 'decline' };
  const { properties, required = [] } = params.requestedSchema;
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(properties)) {
    if (Object.hasOwn(field, 'default') && field.default !== undefined) content[name] = field.default;
  }
  if (required.some((name) => !Object.hasOwn(content, name))) return { action: 'decline' };
  return { action: 'accept', content };
}

/** Installs {@link answerElicitation} on a client that declared {@link ELICITATION_CAPABILITY}. */
export function answerElicitationsUnattended(client: Client): void {
  client.setRequestHandler(ElicitRequestSchema, (request) => answerElicitation(request.params));
}
