/** Permission identifiers; each API operation requires exactly one. */
export const PERMISSIONS = [
  'evals:create_case',
  'evals:manage',
  'evals:view',
  'agents:manage',
  'agents:view',
  'mcp:manage',
  'mcp:view',
  'mcp:call',
  'integrations:manage',
  'flows:manage',
  'flows:run',
  'workspace:admin',
  'workspace:delete',
  'workspaces:create',
  'account:view',
  'tokens:own',
  'members:view',
  'members:manage',
  'service_tokens:manage',
  'audit:view',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['owner', 'admin', 'builder', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

// Every member sees who they are and their workspaces, keeps personal tokens, and may ask to create a workspace
// (whether that is allowed is the instance's WORKSPACE_CREATION setting, checked by the route).
const SELF: Permission[] = ['account:view', 'tokens:own', 'workspaces:create'];
const VIEW: Permission[] = [...SELF, 'evals:view', 'agents:view', 'mcp:view'];
const BUILD: Permission[] = [
  ...VIEW,
  'evals:create_case',
  'evals:manage',
  'agents:manage',
  'mcp:manage',
  'mcp:call',
  'flows:manage',
  'flows:run',
];
const ADMIN: Permission[] = PERMISSIONS.filter((permission) => permission !== 'workspace:delete');

/**
 * What each role may do: owner everything; admin everything but deleting the workspace; builder all but workspace
 * administration (members, service tokens, audit) and integrations; viewer reads.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: ADMIN,
  builder: BUILD,
  viewer: VIEW,
};

/** True when `role` grants `permission`. */
export function roleAllows(role: string, permission: Permission): boolean {
  return Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role as Role].includes(permission);
}
