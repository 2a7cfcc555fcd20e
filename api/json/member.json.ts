import { z } from 'zod';
import type { Member } from '../../db/member.repository';

export const memberJson = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  created_at: z.string(),
});

/** The API shape of a member. */
export function toMemberJson(row: Member): z.infer<typeof memberJson> {
  return {
    user_id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    created_at: row.created_at.toISOString(),
  };
}
