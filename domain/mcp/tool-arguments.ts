import type { FieldProblem } from '../field-problems';
import type { ToolParameter } from './tool-parameters';

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

type Schema = Record<string, unknown>;

const schemaAt = (schema: unknown, key: string): Schema | undefined =>
  typeof schema === 'object' && schema !== null && typeof (schema as Schema)[key] === 'object'
    ? ((schema as Schema)[key] as Schema)
    : undefined;

// Only a type the property declares is checked (the flattened parameter's type may be a guess).
function declaredTypes(inputSchema: unknown, name: string): string[] | undefined {
  const type = schemaAt(schemaAt(inputSchema, 'properties'), name)?.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : undefined;
}

// A schema that says nothing of other keys, or allows them, takes names it does not list.
function takesOtherNames(inputSchema: unknown): boolean {
  if (typeof inputSchema !== 'object' || inputSchema === null) return true;
  const extra = (inputSchema as Schema).additionalProperties;
  return extra !== undefined && extra !== false;
}

/**
 * The first problem of a tool call's arguments against the tool's stored descriptor, under `prefix`: a name the schema
 * refuses, a required parameter missing, a value of another JSON type than the parameter's; undefined when none. The
 * server still validates the whole schema (formats, ranges, nesting).
 */
export function toolArgumentProblem(
  tool: { parameters: ToolParameter[]; input_schema: unknown },
  args: Record<string, unknown>,
  prefix: string,
): FieldProblem | undefined {
  const byName = new Map(tool.parameters.map((parameter) => [parameter.name, parameter]));
  for (const [name, value] of Object.entries(args)) {
    const parameter = byName.get(name);
    if (!parameter) {
      if (takesOtherNames(tool.input_schema)) continue;
      return { field: `${prefix}.${name}`, message: 'is not a parameter of the tool' };
    }
    const types = declaredTypes(tool.input_schema, parameter.name);
    const actual = jsonType(value);
    if (types && !types.includes(actual) && !(actual === 'integer' && types.includes('number')))
      return { field: `${prefix}.${name}`, message: `must be of type ${types.join(' or ')}, not ${actual}` };
  }
  const missing = tool.parameters.find((parameter) => parameter.required && !Object.hasOwn(args, parameter.name));
  return missing ? { field: `${prefix}.${missing.name}`, message: 'is required' } : undefined;
}
