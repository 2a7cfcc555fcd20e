import { z } from 'zod';
import { isUuid } from '../../db/column-values';
import {
  addMember,
  changeMembership,
  listMembers,
  lockCallerRole,
  type Member,
  type MembershipCaller,
} from '../../db/member.repository';
import { hasUnscopedToken } from '../../db/api-token.repository';
import { ROLES } from '../../domain/tenancy/permissions';
import { personalTokenExpiry } from '../../domain/tenancy/token-lifetime';
import { issueToken } from '../../lib/api-tokens';
import type { AuthContext } from '../auth';
import type { AppDeps } from '../app-deps';
import { HttpError, notFound } from '../http-error';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { INVITE_DAYS, claimJson, issueInvitationClaim } from '../invitation-claims';
import { memberJson, toMemberJson } from '../json/member.json';

const role = z.enum(ROLES);

const addedJson = memberJson.extend({
  invite_token: z
    .string()
    .optional()
    .meta({
      description:
        'Only for a user created now (no one held a token for them): their first token, for this workspace only, ' +
        'valid 7 days, shown once',
    }),
  claim: claimJson.optional(),
});

const ownerOnly = (): HttpError =>
  new HttpError(403, 'forbidden', 'only an owner may grant or take away the owner role', { permission: 'owner' });

const noLongerManager = (): HttpError =>
  new HttpError(403, 'forbidden', 'missing permission members:manage', { permission: 'members:manage' });

const lastOwner = (): HttpError =>
  new HttpError(409, 'last_owner', 'the last owner of a workspace can be neither removed nor demoted');

const callerOf = (auth: AuthContext): MembershipCaller => ({ userId: auth.userId, role: auth.role });

// Applies a role change (or a removal, `null`) through the rules; answers the member as they are now.
async function change(deps: AppDeps, auth: AuthContext, userId: string, newRole: string | null): Promise<Member> {
  const result = isUuid(userId)
    ? await changeMembership(deps.db, { workspaceId: auth.workspaceId, userId, caller: callerOf(auth), newRole })
    : { outcome: 'not_found' as const };
  if (result.outcome === 'done') return result.member;
  if (result.outcome === 'forbidden') throw noLongerManager();
  if (result.outcome === 'owner_only') throw ownerOnly();
  if (result.outcome === 'last_owner') throw lastOwner();
  throw notFound('member');
}

/** Members of the current workspace: list, add by e-mail (inviting a new user), change a role, remove. */
export const memberRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/workspaces/current/members',
    summary: "The current workspace's members, oldest first",
    tag: 'members',
    permission: 'members:view',
    query: pageQuery,
    response: dataPageJson(memberJson),
    handler: ({ query, auth, deps }) =>
      dataPage(query, (page) => listMembers(deps.db, auth.workspaceId, page), toMemberJson),
  }),
  route({
    method: 'post',
    path: '/api/workspaces/current/members',
    summary:
      'Add a member by e-mail; a new user (created now) gets an invite_token for this workspace only (shown once, 7 ' +
      'days); an existing one who holds no unscoped token gets a claim to redeem themselves (POST /api/invitations/claim)',
    tag: 'members',
    permission: 'members:manage',
    body: z.object({ email: z.email().max(254), role }).strict(),
    status: 201,
    errors: [409],
    response: z.object({ data: addedJson }),
    handler: async ({ body, auth, deps }) => {
      return deps.db.transaction().execute(async (trx) => {
        const { role: callerRole } = await lockCallerRole(trx, auth.workspaceId, callerOf(auth));
        if (callerRole === undefined) throw noLongerManager();
        if (body.role === 'owner' && callerRole !== 'owner') throw ownerOnly();
        const added = await addMember(trx, auth.workspaceId, body.email, body.role);
        if (added.outcome === 'already_member')
          throw new HttpError(409, 'conflict', `${body.email} is already a member`, { field: 'email' });
        // A person who exists is never handed to the inviter as a token: one who can act here already needs nothing,
        // one who cannot redeems a claim with a token of their own. Only a user made now gets a first token here.
        const member = toMemberJson(added.member);
        if (!added.created) {
          if (await hasUnscopedToken(trx, member.user_id)) return { data: member };
          return { data: { ...member, claim: await issueInvitationClaim(trx, auth.workspaceId, member.user_id) } };
        }
        const invite = await issueToken(trx, {
          userId: member.user_id,
          workspaceId: auth.workspaceId,
          name: 'invite',
          expiresAt: personalTokenExpiry(INVITE_DAYS, deps.config.TOKEN_MAX_DAYS, null, Date.now()),
          scoped: true,
        });
        return { data: { ...member, invite_token: invite.token } };
      });
    },
  }),
  route({
    method: 'patch',
    path: '/api/workspaces/current/members/:user',
    summary: "Change a member's role (owner only for owner; 409 last_owner)",
    tag: 'members',
    permission: 'members:manage',
    body: z.object({ role }).strict(),
    errors: [409],
    response: z.object({ data: memberJson }),
    handler: async ({ body, params, auth, deps }) => ({
      data: toMemberJson(await change(deps, auth, params.user, body.role)),
    }),
  }),
  route({
    method: 'delete',
    path: '/api/workspaces/current/members/:user',
    summary: 'Remove a member (owner only for an owner; 409 last_owner)',
    tag: 'members',
    permission: 'members:manage',
    errors: [409],
    handler: async ({ params, auth, deps }) => {
      await change(deps, auth, params.user, null);
    },
  }),
];
