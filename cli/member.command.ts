import { apiClientFor, type ApiClient, type ApiCommandOptions } from './api-client';
import { fetchAllPages } from './api-pages';
import { printResult, renderList, renderRecord, warnShownOnce } from './command-output';
import { isUuid } from '../db/column-values';

/** Options of the `assay member` commands. */
export interface MemberOptions extends ApiCommandOptions {
  json?: boolean;
  /** `add`: the role to grant (default builder). */
  role?: string;
}

interface MemberJson {
  user_id: string;
  email: string;
  name?: string;
  role: string;
  created_at?: string;
  /** Only when `add` created the user: their first token, shown once. */
  invite_token?: string;
  /** Only when `add` found a user who holds no unscoped token: the code they redeem themselves, shown once. */
  claim?: { code: string; expires_at: string };
}

const MEMBERS = '/api/workspaces/current/members';
const FIELDS = ['user_id', 'email', 'name', 'role', 'created_at'];

/** The user id of a member named by user id or e-mail (an e-mail is looked up among the workspace's members). */
export async function memberId(api: ApiClient, member: string): Promise<string> {
  if (isUuid(member)) return member;
  if (!member.includes('@')) throw new Error(`${member} is neither a user id (a UUID) nor an e-mail address`);
  const members = await fetchAllPages<MemberJson>(api, MEMBERS);
  const found = members.find((m) => m.email.toLowerCase() === member.toLowerCase());
  if (!found) throw new Error(`no member with e-mail ${member} in this workspace`);
  return found.user_id;
}

const memberPath = (userId: string): string => `${MEMBERS}/${encodeURIComponent(userId)}`;

/** `assay member add <email>`: adds a person; a new user also gets an invite token, printed once (or a claim). */
export async function memberAddCommand(email: string, options: MemberOptions): Promise<void> {
  const body = { email, role: options.role ?? 'builder' };
  const { data } = await apiClientFor(options).post<{ data: MemberJson }>(MEMBERS, body);
  printResult(data, options.json, renderRecord);
  if (data.invite_token && !options.json) warnShownOnce(`The invite token for ${email}`);
  if (data.claim && !options.json) warnShownOnce(`The claim code for ${email} (only they can redeem it)`);
}

/** `assay member list`: every member of the workspace. */
export async function memberListCommand(options: MemberOptions): Promise<void> {
  const items = await fetchAllPages<MemberJson>(apiClientFor(options), MEMBERS);
  printResult(items, options.json, (all) => renderList(all, FIELDS));
}

/** `assay member set-role <member> <role>`: applies from that member's next request. */
export async function memberSetRoleCommand(member: string, role: string, options: MemberOptions): Promise<void> {
  const api = apiClientFor(options);
  const { data } = await api.patch<{ data: MemberJson }>(memberPath(await memberId(api, member)), { role });
  printResult(data, options.json, renderRecord);
}

/** `assay member remove <member>`. */
export async function memberRemoveCommand(member: string, options: MemberOptions): Promise<void> {
  const api = apiClientFor(options);
  const userId = await memberId(api, member);
  await api.delete(memberPath(userId));
  printResult({ user_id: userId, removed: true }, options.json, () => `removed ${member}`);
}
