import assert from 'node:assert/strict';
import { PERMISSIONS, ROLES, roleAllows, type Permission } from '../../domain/tenancy/permissions';

const allowed = (role: string): Permission[] => PERMISSIONS.filter((p) => roleAllows(role, p));

describe('role permissions', () => {
  it('covers the permissions the spec names', () => {
    for (const p of [
      'evals:create_case',
      'evals:manage',
      'evals:view',
      'mcp:manage',
      'mcp:view',
      'agents:manage',
      'agents:view',
      'integrations:manage',
      'flows:manage',
      'flows:run',
    ]) {
      assert.ok((PERMISSIONS as readonly string[]).includes(p), p);
    }
  });

  it('gives the owner every permission, and an admin every one but deleting the workspace', () => {
    assert.deepEqual(allowed('owner'), [...PERMISSIONS]);
    assert.deepEqual(
      allowed('admin'),
      PERMISSIONS.filter((p) => p !== 'workspace:delete'),
    );
  });

  it('lets a builder build, evaluate and run flows but not manage integrations or the workspace', () => {
    assert.deepEqual(allowed('builder').sort(), [
      'account:view',
      'agents:manage',
      'agents:view',
      'evals:create_case',
      'evals:manage',
      'evals:view',
      'flows:manage',
      'flows:run',
      'mcp:call',
      'mcp:manage',
      'mcp:view',
      'tokens:own',
      'workspaces:create',
    ]);
  });

  it('lets a viewer only view, besides keeping its own tokens', () => {
    assert.deepEqual(allowed('viewer').sort(), [
      'account:view',
      'agents:view',
      'evals:view',
      'mcp:view',
      'tokens:own',
      'workspaces:create',
    ]);
  });

  it('grants nothing to an unknown role, including inherited object keys', () => {
    for (const role of ['', 'guest', 'OWNER', 'constructor', '__proto__', 'toString'])
      assert.deepEqual(allowed(role), [], role);
  });

  it('orders roles from most to least privileged', () => {
    for (let i = 1; i < ROLES.length; i += 1) {
      const wider = new Set(allowed(ROLES[i - 1]));
      assert.ok(
        allowed(ROLES[i]).every((p) => wider.has(p)),
        `${ROLES[i]} ⊆ ${ROLES[i - 1]}`,
      );
    }
  });
});
