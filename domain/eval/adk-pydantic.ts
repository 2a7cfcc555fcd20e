import { z } from 'zod';

/** The camelCase alias pydantic's `to_camel` gives a snake_case field (`eval_id` → `evalId`). */
export const camelCase = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** What a pydantic model does with a key it has no field for: refuse it, keep it, or drop it. */
export type Extra = 'forbid' | 'allow' | 'ignore';

/**
 * A pydantic model with `alias_generator=to_camel, populate_by_name=True`: each field is read by its name or its
 * camelCase alias (nothing else: `Text` and `EVAL_ID` are unknown keys), and unknown keys are handled as `extra` says.
 */
export function pydanticModel<S extends z.ZodRawShape>(shape: S, extra: Extra = 'forbid') {
  const byAlias = new Map(Object.keys(shape).map((key) => [camelCase(key), key]));
  const object =
    extra === 'forbid' ? z.strictObject(shape) : extra === 'allow' ? z.looseObject(shape) : z.object(shape);
  return z.preprocess(
    (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value).map(([key, item]) => [key in shape ? key : (byAlias.get(key) ?? key), item]),
          )
        : value,
    object,
  );
}

const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf(inity)?|nan)\s*$/i;
const BOOL_TEXT = /^(0|1|true|false|yes|no|on|off|t|f|y|n)$/i;

/** pydantic's lax `float` read from JSON: a number, a boolean, or a string that reads as a number. */
export const pyFloat = z.union([z.number(), z.boolean(), z.string().regex(NUMBER_TEXT)]);
/** pydantic's lax `bool` read from JSON: a boolean, 0 or 1, or one of its words (`yes`, `off`, …). */
export const pyBool = z.union([z.boolean(), z.literal(0), z.literal(1), z.string().regex(BOOL_TEXT)]);
/** `dict[str, Any]`: any JSON object (the user's own data: tool args, responses, session state). */
export const pyDict = z.record(z.string(), z.unknown());
