import type { ColumnType } from 'kysely';

/** A jsonb column: parsed on read, written as a JSON string. */
export type Json<T> = ColumnType<T, string, string>;

/** A nullable jsonb column: SQL NULL (never JSON null) when absent. */
export type NullableJson<T> = ColumnType<T | null, string | null, string | null>;
