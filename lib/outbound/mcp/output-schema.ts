import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types';

const validator = new AjvJsonSchemaValidator();

// A server's patterns would run on a backtracking engine: they are left out, so validation is that much laxer.
function withoutPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutPatterns);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'pattern' && key !== 'patternProperties')
      .map(([key, value]) => [key, withoutPatterns(value)]),
  );
}

/** Why `value` does not validate against a tool's declared output schema; null when it does. */
export function outputSchemaProblem(schema: unknown, value: unknown): string | null {
  try {
    const result = validator.getValidator(withoutPatterns(schema) as JsonSchemaType)(value);
    return result.valid ? null : result.errorMessage;
  } catch (error) {
    return `the tool's output schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}
