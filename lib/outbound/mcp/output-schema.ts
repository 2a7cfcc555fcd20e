import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types';

type Check = ReturnType<AjvJsonSchemaValidator['getValidator']>;

// Ajv keeps every schema it compiled: compiled checks are kept by schema text, and a full cache starts a fresh Ajv
// (dropping the old one's), so a long-lived worker validating many tools' results stays bounded.
const CACHED_SCHEMAS = 256;
let validator = new AjvJsonSchemaValidator();
const checks = new Map<string, Check>();

function checkFor(schema: unknown): Check {
  const key = JSON.stringify(schema);
  let check = checks.get(key);
  if (!check) {
    if (checks.size >= CACHED_SCHEMAS) {
      validator = new AjvJsonSchemaValidator();
      checks.clear();
    }
    check = validator.getValidator(withoutPatterns(schema) as JsonSchemaType);
    checks.set(key, check);
  }
  return check;
}

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
    const result = checkFor(schema)(value);
    return result.valid ? null : result.errorMessage;
  } catch (error) {
    return `the tool's output schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Why a tool result breaks the tool's declared `outputSchema`: `structuredContent` missing or not matching it; null
 * when it conforms, when the tool declares none, or for an error result (which need not carry structured content).
 */
export function toolResultProblem(
  outputSchema: unknown,
  result: { structuredContent?: unknown; isError?: unknown },
): string | null {
  if (outputSchema === null || outputSchema === undefined || result.isError === true) return null;
  if (result.structuredContent === undefined) return 'declares an outputSchema but returned no structuredContent';
  const problem = outputSchemaProblem(outputSchema, result.structuredContent);
  return problem === null ? null : `returned structuredContent that does not match its outputSchema: ${problem}`;
}
