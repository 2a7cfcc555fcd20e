import { z } from 'zod';

/** The built-in side-effecting tools every agent may call (CRM and messaging). */
export const BUILTIN_TOOL_NAMES = ['crm_update_contact', 'messaging_send_message'] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Arguments of `crm_update_contact`: the contact's key and the fields to set. */
export const crmUpdateContactArgs = z
  .object({
    contact_id: z.string().trim().min(1).max(200).describe('The CRM id (or e-mail) of the contact to update or create'),
    name: z.string().max(200).optional().describe('Full name'),
    email: z.string().max(320).optional().describe('E-mail address'),
    phone: z.string().max(40).optional().describe('Phone number'),
    notes: z.string().max(10_000).optional().describe('Free-text notes'),
  })
  .strict();

/** Arguments of `messaging_send_message`: the channel, the recipient and the text. */
export const sendMessageArgs = z
  .object({
    channel: z.enum(['email', 'sms', 'whatsapp']).describe('The channel to send on'),
    to: z.string().trim().min(1).max(320).describe('Recipient address or phone number'),
    text: z.string().min(1).max(10_000).describe('Message text'),
  })
  .strict();

const BUILTIN_DESCRIPTIONS: Readonly<Record<BuiltinToolName, { description: string; schema: z.ZodObject }>> = {
  crm_update_contact: { description: 'Create or update a contact in the CRM.', schema: crmUpdateContactArgs },
  messaging_send_message: {
    description: 'Send a message to a customer by e-mail, SMS or WhatsApp.',
    schema: sendMessageArgs,
  },
};

/** Where a tool offered to the model is executed. */
export type AgentToolSource =
  | { kind: 'builtin' }
  | {
      kind: 'mcp';
      server_id: string;
      server_name: string;
      tool_name: string;
      sandbox_real_calls: boolean;
      /** Real sandbox calls are recorded into the eval set's cassette (absent in runs from before cassettes). */
      record_cassette?: boolean;
      /** The tool's declared output schema (a simulated response must validate against it). */
      output_schema?: unknown;
    };

/** A tool offered to the model: its collision-free name, description, JSON-schema parameters and source. */
export interface AgentToolDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  source: AgentToolSource;
}

/** The definition of a built-in tool (parameters from its zod schema). */
export function builtinToolDef(name: BuiltinToolName): AgentToolDef {
  const { description, schema } = BUILTIN_DESCRIPTIONS[name];
  const { $schema: _schema, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>;
  return { name, description, parameters, source: { kind: 'builtin' } };
}

/** Function names providers accept: letters, digits, `_` and `-`, at most 64 characters. */
const MAX_NAME = 64;
const slug = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'x';

/** A name `<server>__<tool>` that no other offered tool has (suffixed `_2`, `_3`… on a collision, cut to 64). */
export function uniqueToolName(serverName: string, toolName: string, taken: Set<string>): string {
  const base = `${slug(serverName)}__${slug(toolName)}`.slice(0, MAX_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

/** A tool's stored input schema as function parameters: always a JSON-schema object. */
export function toolParameters(inputSchema: unknown): Record<string, unknown> {
  const schema = inputSchema as { type?: unknown } | null;
  if (schema && typeof schema === 'object' && schema.type === 'object') return schema as Record<string, unknown>;
  return { type: 'object', properties: {} };
}

/** The message of a tool call whose arguments failed validation, naming the offending argument. */
export function invalidArgumentsMessage(name: string, error: z.ZodError): string {
  const issue = error.issues[0];
  return `invalid arguments for ${name}: ${issue.path.join('.') || '(arguments)'}: ${issue.message}`;
}

/** Parses the JSON arguments text of a tool call into an object; anything else is an error for the model. */
export function parseToolArguments(
  text: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return { ok: true, args: value as Record<string, unknown> };
  } catch {
    // reported below
  }
  return { ok: false, error: 'the tool arguments are not a JSON object' };
}
