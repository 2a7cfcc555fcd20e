/** One tool parameter in the flat form the flow canvas builds node forms from. */
export interface ToolParameter {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON type of a property schema: its `type` (first non-null of a list), else inferred, else string. */
export function schemaType(schema: Schema): string {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null') ?? 'string';
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const typed = options
        .filter(isSchema)
        .map(schemaType)
        .find((t) => t !== 'null');
      if (typed) return typed;
    }
  }
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'string';
}

/** Flattens a tool's JSON input schema into `{name, type, description, required}` parameters, in schema order. */
export function flattenParameters(inputSchema: unknown): ToolParameter[] {
  if (!isSchema(inputSchema) || !isSchema(inputSchema.properties)) return [];
  const required = new Set(
    Array.isArray(inputSchema.required) ? inputSchema.required.filter((r) => typeof r === 'string') : [],
  );
  return Object.entries(inputSchema.properties).map(([name, property]) => {
    const schema = isSchema(property) ? property : {};
    const description =
      typeof schema.description === 'string'
        ? schema.description
        : typeof schema.title === 'string'
          ? schema.title
          : '';
    return { name, type: schemaType(schema), description, required: required.has(name) };
  });
}

/** Converts a rendered value to the parameter's type where the text form is unambiguous ("2" → 2 for numbers). */
export function coerceArgument(value: unknown, type: string): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if ((type === 'number' || type === 'integer') && text !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if ((type === 'object' && text.startsWith('{')) || (type === 'array' && text.startsWith('['))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}
