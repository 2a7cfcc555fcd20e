import assert from 'node:assert/strict';
import { startBanner } from '../../cli/start-banner';

describe('the assay start banner', () => {
  const banner = (token: string | null): string =>
    startBanner({
      apiUrl: 'http://127.0.0.1:3000',
      gatewayUrl: 'http://127.0.0.1:3100/mcp/agents/{agent}',
      temporalUi: 'http://127.0.0.1:8233',
      vault: 'local',
      token,
      codec: 'off (TEMPORAL_CODEC_ORIGINS is empty)',
    });

  it('names the builder URL first, then the API, its docs, the MCP gateway and the Temporal UI', () => {
    const lines = banner(null).split('\n');
    const urls = lines.flatMap((line) => /^ {2}(\w[\w ]*?) +(http\S+)/.exec(line)?.slice(1, 3) ?? []);
    assert.deepEqual(urls, [
      'Builder',
      'http://127.0.0.1:3000/builder',
      'API',
      'http://127.0.0.1:3000',
      'API docs',
      'http://127.0.0.1:3000/docs',
      'MCP gateway',
      'http://127.0.0.1:3100/mcp/agents/{agent}',
      'Temporal UI',
      'http://127.0.0.1:8233',
    ]);
    assert.ok(lines.includes('Press Ctrl-C to stop.'));
  });

  it('shows a first start its token once, and later starts how to make one', () => {
    assert.match(banner('assay_abc'), /Token\s+assay_abc\n\s+\(shown once;/);
    assert.doesNotMatch(banner(null), /Token\s+assay_/);
  });
});
