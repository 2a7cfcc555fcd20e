import { z } from 'zod';
import { jsonBytes, limitMessage } from './limit-checks';
import { LIMITS, type LimitName } from './limits';

/** A list bounded by a limit of the table: OpenAPI shows `maxItems`, and a longer list is a 422 naming the limit. */
export function boundedArray<T extends z.ZodType>(item: T, name: LimitName): z.ZodArray<T> {
  return z.array(item).max(LIMITS[name], limitMessage(name, 'items'));
}

/** A string bounded by a limit of the table: OpenAPI shows `maxLength`, and a longer one is a 422 naming the limit. */
export function boundedString(name: LimitName): z.ZodString {
  return z.string().max(LIMITS[name], limitMessage(name, 'characters'));
}

/** An object of string keys bounded in entries by a limit of the table (a longer one is a 422 naming the limit). */
export function boundedRecord<T extends z.ZodType>(value: T, name: LimitName): z.ZodRecord<z.ZodString, T> {
  return z
    .record(z.string().max(200), value)
    .refine((record) => Object.keys(record).length <= LIMITS[name], limitMessage(name, 'items'));
}

/**
 * `schema`, its value bounded in UTF-8 bytes as JSON by a limit of the table (a larger one is a 422 naming the limit);
 * `part` picks what is counted, for an object whose other fields have bounds of their own.
 */
export function withinBytes<S extends z.ZodType>(
  schema: S,
  name: LimitName,
  part: (value: z.output<S>) => unknown = (value) => value,
  counted = 'As JSON',
): S {
  // OpenAPI has no keyword for a size in bytes: the document says it in words and names the limit (`x-limit`).
  return schema
    .refine((value) => jsonBytes(part(value)) <= LIMITS[name], limitMessage(name, 'bytes'))
    .meta({ description: `${counted}, ${limitMessage(name, 'bytes')}.`, 'x-limit': name, 'x-max-bytes': LIMITS[name] });
}

/** Any JSON value bounded in UTF-8 bytes by a limit of the table (a larger one is a 422 naming the limit). */
export function boundedJson(name: LimitName): z.ZodUnknown {
  return withinBytes(z.unknown(), name);
}

/** A JSON object of any keys bounded in UTF-8 bytes by a limit of the table (tool args, flow variables). */
export function boundedObject(name: LimitName): z.ZodRecord<z.ZodString, z.ZodUnknown> {
  return withinBytes(z.record(z.string(), z.unknown()), name);
}

/**
 * An object whose `shape` fields are checked (each with its own bounds) and whose other keys are kept as given, those
 * bounded together in UTF-8 bytes by a limit of the table (`session_input` beside `message`, agent `settings`).
 */
export function boundedLooseObject<T extends z.ZodRawShape>(shape: T, name: LimitName): z.ZodObject<T, z.core.$loose> {
  const known = new Set(Object.keys(shape));
  return withinBytes(
    z.looseObject(shape),
    name,
    (value) => Object.fromEntries(Object.entries(value).filter(([key]) => !known.has(key))),
    `Keys beside ${[...known].join(', ')} are kept as given; together, as JSON`,
  );
}
