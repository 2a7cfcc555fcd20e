import Ajv, { type ValidateFunction } from 'ajv';
import type { jsonSchemaValidator, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { stableJson } from '../../../domain/mcp/tool-changes';
import { expandSchema, UncheckableSchemaError } from './schema-bounds';

type Check = ValidateFunction | UncheckableSchemaError;

// The first error is enough to say why a value fails, and stopping there keeps a failing check's cost and message
// small. No formats: they are regular expressions on a backtracking engine (`format` is dropped from every schema).
// `enum` is a set lookup: Ajv's compares the value with each listed one in turn. Ajv's optimising pass costs more
// than quadratic time in the schema's size.
function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: false, code: { optimize: false } });
  ajv.removeKeyword('enum');
  ajv.addKeyword({
    keyword: 'enum',
    schemaType: 'array',
    compile: (values: unknown[]) => {
      const listed = new Set(values.map(stableJson));
      return (data: unknown) => listed.has(stableJson(data));
    },
  });
  return ajv;
}

// Ajv keeps every schema it compiled: compiled checks are kept by schema text, and a full cache starts a fresh Ajv
// (dropping the old one's), so a long-lived worker validating many tools' results stays bounded.
const CACHED_SCHEMAS = 256;
let ajv = newAjv();
const checks = new Map<string, Check>();

function compile(schema: unknown): Check {
  try {
    return ajv.compile(expandSchema(schema));
  } catch (error) {
    if (error instanceof UncheckableSchemaError) return error;
    return new UncheckableSchemaError(error instanceof Error ? error.message : String(error));
  }
}

function checkFor(schema: unknown): Check {
  const key = JSON.stringify(schema);
  let check = checks.get(key);
  if (!check) {
    if (checks.size >= CACHED_SCHEMAS) {
      ajv = newAjv();
      checks.clear();
    }
    check = compile(schema);
    checks.set(key, check);
  }
  return check;
}

/**
 * Why `value` does not validate against a tool's declared output schema; null when it does. The schema is checked in
 * time linear in the value: it is expanded first into a bounded tree without references, patterns, formats or
 * `uniqueItems` (see `expandSchema`), which makes the check laxer there; a schema past those bounds cannot be used.
 */
export function outputSchemaProblem(schema: unknown, value: unknown): string | null {
  const check = checkFor(schema);
  if (check instanceof Error) return `the tool's output schema cannot be used: ${check.message}`;
  try {
    return check(value) ? null : ajv.errorsText(check.errors);
  } catch (error) {
    return `the tool's output schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The MCP SDK's output-schema check, made {@link outputSchemaProblem}'s: the SDK builds a validator for every listed
 * tool, so this one compiles nothing until a tool's result is checked.
 */
export const linearSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown): JsonSchemaValidator<T> {
    return (input) => {
      const problem = outputSchemaProblem(schema, input);
      return problem === null
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: problem };
    };
  },
};

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
