import { z } from 'zod';
import { redeemInvitationClaim } from '../../db/invitation-claim.repository';
import { hashToken } from '../../lib/api-tokens';
import { requireUser } from '../auth';
import { notFound } from '../http-error';
import { NO_PERSONAL_TOKENS, createPersonalToken, createdTokenJson, personalExpiryFor } from '../personal-tokens';
import { route, type RouteSpec } from '../route';

const claimedJson = createdTokenJson.extend({
  workspace_id: z.string().meta({ description: 'The workspace the claim was for: the only one the token acts in' }),
});

/** A person redeems the claim an inviter passed on to them, with a token of their own, for a token of their own. */
export const invitationClaimRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/invitations/claim',
    summary:
      'Redeem a claim (from `POST …/members` for a person who already exists) with a token of your own: once, before ' +
      'it expires, only by the person it names, who gets a token for that workspace only (shown once; 404 otherwise)',
    tag: 'account',
    permission: 'tokens:own',
    body: z.object({ code: z.string().min(1).max(200) }).strict(),
    status: 201,
    errors: [404],
    resource: 'tokens',
    response: z.object({ data: claimedJson }),
    handler: async ({ body, auth, deps }) => {
      const userId = requireUser(auth, NO_PERSONAL_TOKENS);
      const expiresAt = await personalExpiryFor(deps.db, auth, undefined, deps.config.TOKEN_MAX_DAYS);
      return deps.db.transaction().execute(async (trx) => {
        // Marked used in the same transaction as the token is made: a refused token (quota full) leaves it unused.
        const claim = await redeemInvitationClaim(trx, { codeHash: hashToken(body.code), userId });
        if (!claim) throw notFound('claim');
        const { workspace_id: workspaceId } = claim;
        const spec = { userId, workspaceId, scope: workspaceId, mintedBy: null, name: 'invite', expiresAt };
        return { data: { ...(await createPersonalToken(trx, spec)), workspace_id: workspaceId } };
      });
    },
  }),
];
