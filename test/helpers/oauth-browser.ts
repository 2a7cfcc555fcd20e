import assert from 'node:assert/strict';
import { listen } from '../../cli/http-server';
import { freePort } from '../../lib/embedded/process-utils';
import type { Harness } from './harness';
import { createTestPlatform, type TestPlatform } from './platform';

/**
 * What a browser does with an authorization URL: follows the authorization server's redirects until Assay's callback
 * (under `publicUrl`), which it answers without opening.
 */
export async function followToCallback(authorizationUrl: string, publicUrl: string): Promise<string> {
  let url = authorizationUrl;
  for (let hops = 0; hops < 5 && !url.startsWith(`${publicUrl}/oauth/callback`); hops++) {
    const step = await fetch(url, { redirect: 'manual' });
    assert.ok(step.status >= 300 && step.status < 400, `a redirect, not ${step.status}: ${await step.text()}`);
    url = new URL(step.headers.get('location')!, url).toString();
  }
  assert.ok(url.startsWith(`${publicUrl}/oauth/callback`), url);
  return url;
}

/** A platform with a worker whose api listens at its ASSAY_PUBLIC_URL (127.0.0.1), where a browser is sent back. */
export async function publicPlatform(
  h: Harness,
): Promise<{ platform: TestPlatform; publicUrl: string; stop(): Promise<void> }> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const platform = await createTestPlatform(h, {
    vault: 'openbao',
    env: { EGRESS_ALLOWLIST: '127.0.0.1', ASSAY_PUBLIC_URL: publicUrl },
  });
  await platform.startWorker();
  const served = await listen(platform.app, '127.0.0.1', port);
  return { platform, publicUrl, stop: served.close };
}
