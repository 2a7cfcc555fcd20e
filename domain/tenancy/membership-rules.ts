/** Why a change of a membership is refused: only an owner grants or takes away `owner`; a workspace keeps an owner. */
export type MembershipRefusal = 'owner_only' | 'last_owner';

/** One change asked of a member: a new role, or `null` to remove them. */
export interface MembershipChange {
  callerRole: string;
  currentRole: string;
  newRole: string | null;
  /** Owners of the workspace now, this member included. */
  owners: number;
}

/** The reason `change` is refused, or undefined when it is allowed. */
export function membershipRefusal(change: MembershipChange): MembershipRefusal | undefined {
  const touchesOwner = change.currentRole === 'owner' || change.newRole === 'owner';
  if (touchesOwner && change.callerRole !== 'owner') return 'owner_only';
  const losesOwner = change.currentRole === 'owner' && change.newRole !== 'owner';
  if (losesOwner && change.owners <= 1) return 'last_owner';
  return undefined;
}
