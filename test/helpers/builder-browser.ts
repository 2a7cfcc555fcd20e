import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { evalApi } from './eval-api';
import { harness } from './harness';
import { createTestPlatform, type TestPlatform } from './platform';
import { serveWithRelay, type ServedApi } from './relay-client';
import { startScriptedLlm, type ScriptHandler, type ScriptedLlm } from './scripted-llm';
import { createTenant, type Tenant } from './tenants';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Chromium as the browser tests run it (provisioned by `scripts/provision.sh test`). */
export async function launchChromium(): Promise<Browser> {
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/provision.sh`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** Where the builder tests put their screenshots. */
export const ARTIFACTS = path.join(__dirname, '..', '..', '.test-artifacts');

/** Everything a builder-page test drives: the platform with a worker, the scripted judge, one owner and headless Chromium. */
export interface BuilderRig {
  platform: TestPlatform;
  llm: ScriptedLlm;
  served: ServedApi;
  browser: Browser;
  owner: Tenant;
  api: ReturnType<typeof evalApi>;
  /** The agent `concierge` (gpt-4o), its OpenAI integration pointing at the scripted judge. */
  agent: any;
  close(): Promise<void>;
}

/** Starts the platform and a worker, the scripted judge answering with `judge`, the API with its relay, and Chromium. */
export async function startBuilderRig(judge: ScriptHandler, env: NodeJS.ProcessEnv = {}): Promise<BuilderRig> {
  const platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1', ...env } });
  const started: Array<{ close(): Promise<void> }> = [platform];
  const close = async (): Promise<void> => {
    for (const part of started.reverse()) await part.close();
  };
  try {
    await platform.startWorker();
    const llm = await startScriptedLlm(judge);
    started.push(llm);
    const owner = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, owner);
    const agent = await api.agent('concierge', 'gpt-4o');
    await api.connect('openai', 'sk-builder-page-openai-key-01', llm.baseUrl);
    const deps = { config: platform.config, db: platform.runtime.db, logger: platform.logger };
    const served = await serveWithRelay(platform.app, deps);
    started.push(served);
    const browser = await launchChromium();
    started.push(browser);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    return { platform, llm, served, browser, owner, api, agent, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Opens `url` in a new page and answers the page's token prompt; `problems` collects page errors and console errors. */
export async function openWithToken(
  browser: Browser,
  url: string,
  token: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(url);
  await page.locator('#token-input').fill(token);
  await page.locator('#token-input').press('Enter');
  return { page, problems };
}
