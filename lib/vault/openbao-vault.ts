import nodeVault from 'node-vault';
import { assertCredentialRef, type CredentialRef, type CredentialVault } from './credential-vault';

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
  return {
    backend: 'vault',
    async put(ref, value) {
      await guarded('write', () => client.write(path('data', ref), { data: { value } }), undefined);
    },
    async get(ref) {
      const res = await guarded('read', () => client.read(path('data', ref)), null);
      return (res as { data?: { data?: { value?: string } } } | null)?.data?.data?.value ?? null;
    },
    async delete(ref) {
      await guarded('delete', () => client.delete(path('metadata', ref)), undefined);
    },
  };
}
