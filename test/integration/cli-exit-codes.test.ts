import assert from 'node:assert/strict';
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { listen } from '../../cli/http-server';
import { upsertMembership } from '../../db/member.repository';
import { createWorkspace } from '../../db/workspace.repository';
import { freePort } from '../../lib/embedded/process-utils';
import { runAssay, type CliResult } from '../helpers/assay-cli';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { forwardingProxy } from '../helpers/forwarding-proxy';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

// No ambient api settings: each test names the ones it means.
const assay = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  runAssay(args, { ASSAY_URL: '', ASSAY_TOKEN: '', ASSAY_WORKSPACE: '', ...env });

/** A loopback proxy in front of the api that answers the first `failures` GETs 503 and forwards everything else. */
function flakyProxy(target: string, failures: number): ReturnType<typeof forwardingProxy> {
  let failed = 0;
  return forwardingProxy(target, {
    intercept: (req, res) => {
      if (req.method !== 'GET' || failed >= failures) return false;
      failed++;
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('upstream restarting');
      return true;
    },
  });
}

describe('assay exit codes: usage errors, --version, network failures', function () {
  this.timeout(180_000);

  it('exits 2 with a message on a usage error (unknown option or command, missing argument, bad value)', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['agent:eval', 'bot', 'smoke', '--no-such-flag'], /unknown option '--no-such-flag'/],
      [['no-such-command'], /unknown command 'no-such-command'/],
      [['agent:eval', 'bot'], /missing required argument 'evalSet'/],
      [
        ['agent:eval', 'bot', 'smoke', '--workspace', 'not-a-uuid'],
        /'--workspace <id>' argument 'not-a-uuid' is invalid/,
      ],
      [['agent:eval', 'bot', 'smoke', '--junit'], /option '--junit <file>' argument missing/],
      [['service-token', 'create'], /required option '--name <name>' not specified/],
      [['service-token', 'create', '--name', 'ci', '--role', 'owner'], /'owner' is invalid. Allowed choices are admin/],
      [['token', 'create', '--role', 'admin'], /--role only with --email \(the database bootstrap\)/],
      [['token', 'list', '--cursor', 'c'], /--cursor only with --email/],
      [['token', 'create', '--expires-in-days', '1.5'], /'1.5' is invalid. must be a whole number of days/],
      [['workspace', 'rename', 'not-a-uuid', 'x'], /value 'not-a-uuid' is invalid for argument 'id'/],
      [['workspace', 'delete', '00000000-0000-4000-8000-000000000000'], /add --yes/],
      [['member', 'set-role', 'a@example.test', 'superuser'], /'superuser' is invalid for argument 'role'/],
      [['member', 'add'], /missing required argument 'email'/],
    ];
    for (const [args, message] of cases) {
      const result = await assay(args);
      assert.equal(result.code, 2, `assay ${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, `assay ${args.join(' ')}`);
    }
  });

  it('prints the version of package.json with --version and exits 0; --help exits 0', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const result = await assay([flag]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), version);
    }
    const help = await assay(['agent:eval', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--workspace <id>/);
  });

  it('exits 2 naming the address after retrying a GET on a closed port five times', async () => {
    const port = await freePort();
    const result = await assay(['agent:eval', 'bot', 'smoke', '--url', `http://127.0.0.1:${port}`, '--token', 'x']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED \\(gave up after 5 tries\\)`),
    );
    for (const attempt of [2, 3, 4, 5]) assert.match(result.stderr, new RegExp(`try ${attempt} of 5`));
  });

  describe('against a real api', () => {
    let platform: TestPlatform;
    let llm: ScriptedLlm;
    let tenant: Tenant;
    let apiUrl: string;
    let closeHttp: () => Promise<void>;
    let otherWorkspace: string;

    before(async () => {
      llm = await startScriptedLlm(judgeReplies({}));
      platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
      await platform.startWorker();
      const served = await listen(platform.app, '127.0.0.1', 0);
      closeHttp = served.close;
      apiUrl = `http://127.0.0.1:${(served.server.address() as net.AddressInfo).port}`;
      tenant = await createTenant(platform.runtime.db, 'admin');
      // The agent lives in a second workspace of the same user: only --workspace finds it.
      otherWorkspace = (await createWorkspace(platform.runtime.db, 'ci-workspace')).id;
      await upsertMembership(platform.runtime.db, otherWorkspace, tenant.userId, 'admin');
      const inOther = { ...tenant.auth, 'X-Workspace-Id': otherWorkspace };
      const api = evalApi(platform.app, { ...tenant, auth: inOther });
      await api.agent('exit-bot', 'gpt-4o');
      await api.connect('openai', 'sk-exit-test-key', llm.baseUrl);
      await api.evalSet('exit-bot', { name: 'smoke' });
      await api.addCase('exit-bot', 'smoke', {
        name: 'lookup',
        session_input: { message: 'Where is order 1?' },
        expected_trajectory: [{ tool_name: 'lookup_order', tool_args: { id: 1 } }],
      });
    });
    after(async () => {
      await closeHttp?.();
      await platform?.close();
      await llm?.close();
    });

    it('retries GETs answered 503 and succeeds once the api answers, sending --workspace on every request', async () => {
      const proxy = await flakyProxy(apiUrl, 2);
      try {
        const result = await assay(
          ['agent:eval', 'exit-bot', 'smoke', '--min-pass-rate', '0', '--workspace', otherWorkspace, '--json', '-'],
          { ASSAY_URL: proxy.url, ASSAY_TOKEN: tenant.token },
        );
        assert.equal(result.code, 0, result.stderr);
        const first = proxy.seen.slice(0, 3);
        assert.deepEqual(
          first.map((r) => r.status),
          [503, 503, 200],
          'the first GET was answered 503 twice, then tried again and answered',
        );
        assert.equal(new Set(first.map((r) => `${r.method} ${r.path}`)).size, 1, 'the same GET was retried');
        assert.match(result.stderr, /HTTP 503 Service Unavailable; try 2 of 5/);
        assert.ok(
          proxy.seen.every((r) => r.workspace === otherWorkspace),
          'every request named the workspace',
        );
        // --json -: stdout is the JSON report alone; the human report went to stderr.
        const report = JSON.parse(result.stdout);
        assert.equal(report.run.status, 'completed');
        assert.equal(report.results.length, 1);
        assert.match(result.stderr, /PASSED/);
      } finally {
        await proxy.close();
      }
    });

    it('does not find the agent without --workspace (the token defaults to its own workspace): exit 2', async () => {
      const result = await assay(['agent:eval', 'exit-bot', 'smoke'], { ASSAY_URL: apiUrl, ASSAY_TOKEN: tenant.token });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /agent not found/);
    });
  });
});
