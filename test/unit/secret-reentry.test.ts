import assert from 'node:assert/strict';
import { baseUrlMoves, secretMove } from '../../domain/mcp/secret-reentry';

describe('which changes move stored secrets', () => {
  const auth = { Authorization: 'Bearer $API_KEY' };
  const here = { url: 'https://mcp.example.com/v1', headers: auth };

  it('moves them with another scheme, host or port, whatever the spelling of the default port', () => {
    for (const url of ['http://mcp.example.com/v1', 'https://evil.example.com/v1', 'https://mcp.example.com:8443/v1']) {
      assert.equal(secretMove(here, { ...here, url })?.field, 'config.url', url);
    }
    assert.equal(secretMove(here, { ...here, url: 'https://MCP.example.com:443/v2?x=1' }), undefined);
  });

  it('moves them when a header carrying a secret is added, removed, renamed or changed', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...auth, 'X-Copy': '$API_KEY' }, 'config.headers.X-Copy'],
      [{}, 'config.headers.Authorization'],
      [{ 'X-Auth': 'Bearer $API_KEY' }, 'config.headers.Authorization'],
      [{ authorization: 'Bearer $API_KEY' }, 'config.headers.Authorization'],
      [{ Authorization: 'Token $API_KEY' }, 'config.headers.Authorization'],
    ];
    for (const [headers, field] of cases) assert.equal(secretMove(here, { ...here, headers })?.field, field);
  });

  it('lets headers without secrets change freely', () => {
    assert.equal(secretMove(here, { ...here, headers: { ...auth, 'X-Trace': 'on' } }), undefined);
    const traced = { ...here, headers: { ...auth, 'X-Trace': 'on' } };
    assert.equal(secretMove(traced, { ...traced, headers: { ...auth, 'X-Trace': 'off' } }), undefined);
    assert.equal(secretMove(traced, here), undefined);
  });

  it('treats own header names only, so a header named like a prototype key is a change', () => {
    assert.equal(
      secretMove(here, { ...here, headers: { ...auth, constructor: '$API_KEY' } })?.field,
      'config.headers.constructor',
    );
  });

  it('moves a provider key with any change of base URL, including back to the default', () => {
    assert.equal(baseUrlMoves('https://gw.example.com/v1', 'https://gw.example.com/v1'), false);
    assert.equal(baseUrlMoves('https://GW.example.com:443/v1', 'https://gw.example.com/v1'), false);
    assert.equal(baseUrlMoves(null, null), false);
    assert.equal(baseUrlMoves('https://gw.example.com/v1', 'https://gw.example.com/v2'), true);
    assert.equal(baseUrlMoves('https://gw.example.com/v1', null), true);
    assert.equal(baseUrlMoves(null, 'https://evil.example.com/v1'), true);
  });
});
