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

/** Any JSON value bounded in UTF-8 bytes by a limit of the table (a larger one is a 422 naming the limit). */
export function boundedJson(name: LimitName): z.ZodUnknown {
  return z
    .unknown()
    .refine((value) => value === undefined || jsonBytes(value) <= LIMITS[name], limitMessage(name, 'bytes'));
}
