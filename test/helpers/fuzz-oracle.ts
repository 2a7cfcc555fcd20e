import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { JsonSchema } from './fuzz-schema';

/** One operation of /openapi.json, as far as the fuzz suite reads it. */
export interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  /** Alternatives, any one of which suffices; `{}` among them means no credentials at all. */
  security?: Array<Record<string, string[]>>;
}

/** The document itself. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/**
 * What a response must be, per the document: its status listed, its JSON body of the listed schema, and no success
 * without the credentials the operation's security requires.
 */
export class ResponseOracle {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: document.components ?? {} });
  }

  /** Looks up `#/components/schemas/...`. */
  resolve = (ref: string): JsonSchema => {
    const name = ref.replace('#/components/schemas/', '');
    const schema = this.document.components?.schemas?.[name];
    if (!schema) throw new Error(`unknown schema ${ref}`);
    return schema;
  };

  /** Why a response breaks the document, or undefined when it keeps to it; `sent` says what the request carried. */
  problem(
    path: string,
    method: string,
    res: { status: number; body: unknown; type: string; text?: string },
    sent: { authorization: boolean } = { authorization: true },
  ): string | undefined {
    const operation = this.document.paths[path]?.[method];
    const documented = operation?.responses[String(res.status)];
    if (!documented) return `status ${res.status} is not documented for ${method.toUpperCase()} ${path}`;
    const tokenless = !operation?.security || operation.security.some((option) => Object.keys(option).length === 0);
    if (res.status < 300 && !sent.authorization && !tokenless)
      return `status ${res.status} without credentials, while ${method.toUpperCase()} ${path} documents it needs them`;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return undefined;
    if (!/json/.test(res.type)) return `status ${res.status} documents JSON, got ${res.type || 'no body'}`;
    const key = `${method} ${path} ${res.status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.rebased(schema));
      this.validators.set(key, validate);
    }
    if (validate(res.body)) return undefined;
    return `body of ${res.status} does not match its schema: ${this.ajv.errorsText(validate.errors)}`;
  }

  // Component references point into the document; they resolve against the schema registered as `openapi`.
  private rebased(schema: JsonSchema): object {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
  }
}

/** Tables every request may write to whatever it is: a state-changing request's audit entry. */
const UNFINGERPRINTED_TABLES = ['audit_events'];
/** Columns a request may touch in passing: a token's `last_used_at`. */
const UNFINGERPRINTED_COLUMNS = ['last_used_at'];

/**
 * A function that fingerprints every row of every table: equal fingerprints mean nothing was written (apart from
 * the audit trail and `last_used_at`, which any authenticated request may write).
 */
export async function databaseFingerprint(db: Db): Promise<() => Promise<string>> {
  const tables = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%' ORDER BY 1
  `.execute(db);
  const ignored = sql.join(UNFINGERPRINTED_COLUMNS.map((column) => sql.lit(column)));
  const parts = tables.rows
    .filter(({ name }) => !UNFINGERPRINTED_TABLES.includes(name))
    .map(
      ({ name }) =>
        sql`SELECT ${name} AS t, count(*) AS n, md5(coalesce(string_agg(md5(r), '' ORDER BY md5(r)), '')) AS h FROM (SELECT (to_jsonb(x) - ARRAY[${ignored}])::text AS r FROM ${sql.table(name)} x) rows`,
    );
  const query = sql<{ t: string; n: string; h: string }>`${sql.join(parts, sql` UNION ALL `)}`;
  // Sorted here: a UNION ALL promises no order, and on large tables Postgres runs it as a parallel append.
  return async () =>
    (await query.execute(db)).rows
      .map((row) => `${row.t}:${row.n}:${row.h}`)
      .sort()
      .join(' ');
}
