import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/builder-browser';
import { harness } from '../helpers/harness';
import { createTestPlatform, servePlatform, type TestPlatform } from '../helpers/platform';

// What a person meets first, in headless Chromium against the api as `assay api` serves it.
describe('first contact: / leads to the builder, /docs renders the API reference offline', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let browser: Browser;
  let served: { baseUrl: string; close(): Promise<void> } | undefined;
  let baseUrl: string;

  before(async () => {
    platform = await createTestPlatform(await harness());
    served = await servePlatform(platform);
    baseUrl = served.baseUrl;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await platform?.close();
  });

  it('redirects / to the builder page', async () => {
    const res = await fetch(`${baseUrl}/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/builder');
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    assert.equal(new URL(page.url()).pathname, '/builder');
    assert.ok(await page.locator('#token-input').isVisible(), 'the builder asks for a token');
    await page.close();
  });

  it('renders every operation of /openapi.json with Swagger UI, loading nothing from another origin', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.opblock').count(), operations);
    assert.match((await page.locator('.info .title').textContent()) ?? '', /Assay API/);
    for (const path of ['/api/ai-agents', '/api/v1/mcp-servers', '/openapi.json'])
      assert.ok(await page.locator(`.opblock-summary-path[data-path="${path}"]`).count(), `${path} is shown`);
    assert.deepEqual(
      requests.filter((url) => !url.startsWith(`${baseUrl}/`) && !url.startsWith('data:')),
      [],
      'no request leaves the api',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});
