/** Permission identifiers; each API operation requires exactly one. */
export const PERMISSIONS = [
  'evals:create_case',
  'evals:manage',
  'evals:view',
  'agents:manage',
  'agents:view',
  'mcp:manage',
  'mcp:view',
  'integrations:manage',
  'flows:manage',
  'flows:run',
  'workspace:admin',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['owner', 'admin', 'builder', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const VIEW: Permission[] = ['evals:view', 'agents:view', 'mcp:view'];
const BUILD: Permission[] = [
  ...VIEW,
  'evals:create_case',
  'evals:manage',
  'agents:manage',
  'mcp:manage',
  'flows:manage',
  'flows:run',
];

/** What each role may do: owner and admin everything, builder all but workspace administration and integrations. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  builder: BUILD,
  viewer: VIEW,
};

/** True when `role` grants `permission`. */
export function roleAllows(role: string, permission: Permission): boolean {
  return Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role as Role].includes(permission);
}
