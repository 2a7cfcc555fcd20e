import type http from 'node:http';
import request from 'supertest';
import { startCountingProxy, type CountingProxy } from './counting-proxy';
import { harness } from './harness';
import { startEverythingHttp } from './mcp-peers';
import { createTestPlatform, type TestPlatform } from './platform';
import { startScriptedLlm, type ScriptedLlm } from './scripted-llm';
import { createTenant, type Tenant } from './tenants';

/**
 * A platform with a worker, one owner, and the places a secret may be given for: two real MCP listeners (counting
 * proxies before one server-everything) and two scripted LLMs, all on loopback.
 */
export interface SecretScene {
  platform: TestPlatform;
  tenant: Tenant;
  first: CountingProxy;
  second: CountingProxy;
  llmA: ScriptedLlm;
  llmB: ScriptedLlm;
  send(method: 'get' | 'post' | 'patch' | 'put', path: string, body?: object): Promise<request.Response>;
  /** The tenant's stored value of a credential, read from the vault. */
  vaultValue(credentialId: string): Promise<string | null>;
  close(): Promise<void>;
}

/** Starts the scene; the egress guard lets loopback through, where every listener is. */
export async function startSecretScene(): Promise<SecretScene> {
  const platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
  await platform.startWorker();
  const everything = await startEverythingHttp();
  const [first, second, llmA, llmB] = await Promise.all([
    startCountingProxy(everything.url),
    startCountingProxy(everything.url),
    startScriptedLlm(() => ({ content: 'from A' })),
    startScriptedLlm(() => ({ content: 'from B' })),
  ]);
  const tenant = await createTenant(platform.runtime.db, 'owner');
  return {
    platform,
    tenant,
    first,
    second,
    llmA,
    llmB,
    send: async (method, path, body) => request(platform.app)[method](path).set(tenant.auth).send(body),
    vaultValue: (credentialId) => platform.runtime.vault.get({ workspaceId: tenant.workspaceId, credentialId }),
    async close() {
      await Promise.all([first.close(), second.close(), llmA.close(), llmB.close()]);
      await everything.stop();
      await platform.close();
    },
  };
}

/** True when any header of any of the requests carries `secret`. */
export const carries = (seen: http.IncomingHttpHeaders[], secret: string): boolean =>
  seen.some((headers) => Object.values(headers).some((value) => String(value).includes(secret)));
