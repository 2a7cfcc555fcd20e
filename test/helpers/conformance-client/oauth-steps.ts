import type { AssayClient } from './assay-client';
import type { ScenarioDriver } from './drivers';
import { callThroughFlow, registerServer, testAndSync } from './steps';

const log = (line: string): void => void process.stderr.write(`[assay-conformance] ${line}\n`);

/** Re-authorizations the driver attempts after a step-up before it gives up (Assay refuses past its own limit). */
const REAUTHORIZATIONS = 4;

/**
 * What a person does: `POST …/authorize`, then open the URL in a browser, following redirects until Assay's
 * callback. The callback is under `ASSAY_CONFORMANCE_PUBLIC_URL` (Assay's ASSAY_PUBLIC_URL, which need not resolve,
 * as a browser on a machine with a hosts entry would reach it) and is opened at the api's real address.
 */
export async function authorizeAsBrowser(api: AssayClient, serverId: string): Promise<void> {
  const publicUrl = process.env.ASSAY_CONFORMANCE_PUBLIC_URL ?? '';
  const apiUrl = process.env.ASSAY_CONFORMANCE_API ?? '';
  const started = await api.call<{ authorization_url: string }>('POST', `/api/v1/mcp-servers/${serverId}/authorize`);
  let url = started.authorization_url;
  for (let hops = 0; hops < 10; hops++) {
    if (url.startsWith(`${publicUrl}/oauth/callback`)) {
      const callback = new URL(url.slice(publicUrl.length), apiUrl);
      const page = await fetch(callback);
      const text = await page.text();
      if (page.status !== 200) throw new Error(`callback answered ${page.status}: ${text}`);
      log(`authorized ${serverId}`);
      return;
    }
    const step = await fetch(url, { redirect: 'manual' });
    const location = step.headers.get('location');
    if (step.status < 300 || step.status >= 400 || !location)
      throw new Error(`the authorization page answered ${step.status}, not a redirect`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects before the callback');
}

// Runs `use`; when it fails with the server in authorization_required (a step-up), authorizes again and retries.
async function withReauthorization<T>(api: AssayClient, serverId: string, use: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await use();
    } catch (error) {
      const server = await api.call<{ status: string; last_error: string | null }>(
        'GET',
        `/api/v1/mcp-servers/${serverId}`,
      );
      if (server.status !== 'authorization_required' || attempt >= REAUTHORIZATIONS) throw error;
      log(`${(error as Error).message}; server says ${server.last_error}: authorizing again`);
      await authorizeAsBrowser(api, serverId);
    }
  }
}

/**
 * The auth/* scenarios: register with `auth: {type: "oauth"}` (the suite's pre-registered credentials when its
 * context has them), authorize as a person would, then test, refresh-tools and each tool through a flow, authorizing
 * again when the server asks for more scope.
 */
export const oauthDriver: ScenarioDriver = async (api, url, context) => {
  const credentials =
    typeof context.client_id === 'string'
      ? { client_id: context.client_id, client_secret: context.client_secret as string | undefined }
      : {};
  const serverId = await registerServer(api, url, { auth: { type: 'oauth', ...credentials } });
  await authorizeAsBrowser(api, serverId);
  await syncAndCallEveryTool(api, serverId);
};

/** Machine to machine: register with `auth: {type: "oauth_client_credentials"}` and the suite's credentials. */
export const clientCredentialsDriver: ScenarioDriver = async (api, url, context) => {
  const auth = { type: 'oauth_client_credentials', client_id: context.client_id, client_secret: context.client_secret };
  await syncAndCallEveryTool(api, await registerServer(api, url, { auth }));
};

async function syncAndCallEveryTool(api: AssayClient, serverId: string): Promise<void> {
  const tools = await withReauthorization(api, serverId, () => testAndSync(api, serverId));
  for (const tool of tools)
    await withReauthorization(api, serverId, async () => {
      const run = await callThroughFlow(api, serverId, tool);
      if (run.status !== 'completed')
        throw new Error(`flow run of ${tool.name} ended ${run.status}: ${run.error ?? run.nodes[0]?.error ?? ''}`);
    });
}
