import { apiClientFor, type ApiCommandOptions } from './api-client';
import { fetchAllPages } from './api-pages';
import { printResult, renderList, renderRecord, warnShownOnce } from './command-output';

/** `personal`: the caller's own tokens; `service`: the current workspace's service tokens. */
export type TokenKind = 'personal' | 'service';

const TIMES = ['created_at', 'expires_at', 'last_used_at', 'revoked_at'];
const KINDS: Record<TokenKind, { label: string; path: string; fields: readonly string[] }> = {
  personal: { label: 'personal token', path: '/api/tokens', fields: ['id', 'name', 'prefix', ...TIMES] },
  service: {
    label: 'service token',
    path: '/api/workspaces/current/service-tokens',
    fields: ['id', 'name', 'role', 'prefix', ...TIMES],
  },
};

/** Options of `create`, `list` and `revoke` over HTTP. */
export interface ApiTokenOptions extends ApiCommandOptions {
  json?: boolean;
  name?: string;
  /** Service tokens only: admin, builder or viewer (the API's default: builder). */
  role?: string;
  expiresInDays?: number;
}

/** `create`: a token, printed once (the API keeps only its hash). */
export async function apiTokenCreateCommand(kind: TokenKind, options: ApiTokenOptions): Promise<void> {
  const { label, path } = KINDS[kind];
  const body = {
    name: options.name ?? 'cli',
    ...(options.role === undefined ? {} : { role: options.role }),
    ...(options.expiresInDays === undefined ? {} : { expires_in_days: options.expiresInDays }),
  };
  const { data } = await apiClientFor(options).post<{ data: { token: string } }>(path, body);
  printResult(data, options.json, renderRecord);
  if (!options.json) warnShownOnce(`The ${label}`);
}

/** `list`: every token of the kind, never a secret. */
export async function apiTokenListCommand(kind: TokenKind, options: ApiTokenOptions): Promise<void> {
  const { path, fields } = KINDS[kind];
  const items = await fetchAllPages<object>(apiClientFor(options), path);
  printResult(items, options.json, (all) => renderList(all, fields));
}

/** `revoke <id>`: the token stops working at once. */
export async function apiTokenRevokeCommand(kind: TokenKind, id: string, options: ApiTokenOptions): Promise<void> {
  const { label, path } = KINDS[kind];
  await apiClientFor(options).delete(`${path}/${encodeURIComponent(id)}`);
  printResult({ id, revoked: true }, options.json, () => `revoked ${label} ${id}`);
}
