import { z } from 'zod';
import type { Db } from '../db/database';
import { upsertInvitationClaim } from '../db/invitation-claim.repository';
import { generateToken } from '../lib/api-tokens';

/** How long an invitation's token (within TOKEN_MAX_DAYS) or claim stays valid. */
export const INVITE_DAYS = 7;

/** How a claim code starts: never a bearer token (no token table holds its hash). */
const CLAIM_PREFIX = 'assay_claim_';

/** A claim as the inviter receives it: the code, shown this once, to pass on to the person. */
export const claimJson = z
  .object({
    code: z.string().meta({ description: 'One-time code; only the person redeems it (`POST /api/invitations/claim`)' }),
    expires_at: z.string(),
  })
  .meta({
    description:
      'Only for a person who already exists and holds no unscoped token: instead of a token for them, a claim they ' +
      'redeem themselves with a token of their own, once, within 7 days',
  });

/** Issues the one-time claim of a person to a workspace (replacing an earlier one); only the code's hash is stored. */
export async function issueInvitationClaim(
  trx: Db,
  workspaceId: string,
  userId: string,
): Promise<z.infer<typeof claimJson>> {
  const { token: code, hash } = generateToken(CLAIM_PREFIX);
  const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
  await upsertInvitationClaim(trx, { workspaceId, userId, codeHash: hash, expiresAt });
  return { code, expires_at: expiresAt.toISOString() };
}
