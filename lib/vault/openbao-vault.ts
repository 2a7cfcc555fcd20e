import nodeVault from 'node-vault';
import { assertCredentialRef, assertWorkspaceId, type CredentialRef, type CredentialVault } from './credential-vault';

export interface OpenBaoVaultOptions {
  address: string;
  token: string;
  mount: string;
}

function statusOf(error: unknown): number | undefined {
  return (error as { response?: { statusCode?: number } }).response?.statusCode;
}

// node-vault errors carry the request (token, body); only a status code leaves this module.
async function guarded<T>(operation: string, run: () => Promise<T>, onNotFound: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) return onNotFound;
    throw new Error(`credential vault ${operation} failed (${status ?? 'unreachable'})`);
  }
}

/** Vault / OpenBao KV v2 backend through node-vault raw paths. */
export function createOpenBaoVault(options: OpenBaoVaultOptions): CredentialVault {
  const client = nodeVault({ apiVersion: 'v1', endpoint: options.address, token: options.token });
  const path = (kind: 'data' | 'metadata', ref: CredentialRef): string => {
    assertCredentialRef(ref);
    return `${options.mount}/${kind}/assay/${ref.workspaceId}/${ref.credentialId}`;
  };
  const vault: CredentialVault = {
    backend: 'vault',
    // Paths are built (and the ref validated) outside `guarded`, so a bad id is reported as such, not as "unreachable".
    async put(ref, value) {
      const dataPath = path('data', ref);
      await guarded('write', () => client.write(dataPath, { data: { value } }), undefined);
    },
    async get(ref) {
      const dataPath = path('data', ref);
      const res = await guarded('read', () => client.read(dataPath), null);
      return (res as { data?: { data?: { value?: string } } } | null)?.data?.data?.value ?? null;
    },
    async delete(ref) {
      const metadataPath = path('metadata', ref);
      await guarded('delete', () => client.delete(metadataPath), undefined);
    },
    // KV v2 lists keys under a folder; OpenBao honours `limit` (HashiCorp Vault ignores it, hence the slice). What is
    // listed is deleted, so the next call's first page is the next batch: no `after` cursor to keep.
    async deleteWorkspacePage(workspaceId, limit) {
      assertWorkspaceId(workspaceId);
      const folder = `${options.mount}/metadata/assay/${workspaceId}?limit=${limit}`;
      const listed = await guarded('list', () => client.list(folder), null);
      const keys = ((listed as { data?: { keys?: string[] } } | null)?.data?.keys ?? []).slice(0, limit);
      for (const credentialId of keys) await vault.delete({ workspaceId, credentialId });
      return keys.length;
    },
  };
  return vault;
}
