import assert from 'node:assert/strict';
import { parseAllowlist } from '../../lib/outbound/egress/allowlist';
import { refuseResolved, refuseUrl } from '../../lib/outbound/egress/target-policy';

const none = parseAllowlist('');

describe('egress target policy', () => {
  for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1']) {
    it(`refuses the loopback spelling ${host} after URL normalisation`, () => {
      assert.equal(refuseUrl(new URL(`http://${host}/`), none), '127.0.0.1 is a loopback address');
    });
  }

  it('refuses IPv4-mapped IPv6 literals as their IPv4 range', () => {
    assert.equal(refuseUrl(new URL('http://[::ffff:127.0.0.1]/'), none), '::ffff:7f00:1 is a loopback address');
  });

  it('refuses schemes other than http and https', () => {
    assert.equal(refuseUrl(new URL('file:///etc/passwd'), none), 'scheme file: is not allowed');
    assert.equal(refuseUrl(new URL('ftp://example.com/'), none), 'scheme ftp: is not allowed');
  });

  it('refuses userinfo without repeating the credentials', () => {
    const reason = refuseUrl(new URL('http://user:s3cret@example.com/'), none);
    assert.equal(reason, 'URLs with credentials (userinfo) are not allowed');
  });

  it('refuses metadata host names even when allowlisted', () => {
    const allowlist = parseAllowlist('metadata.google.internal');
    assert.equal(
      refuseUrl(new URL('http://metadata.google.internal/'), allowlist),
      'metadata.google.internal is a cloud metadata host name',
    );
  });

  it('leaves names to DNS and allows public literals', () => {
    assert.equal(refuseUrl(new URL('https://example.com/mcp'), none), undefined);
    assert.equal(refuseUrl(new URL('https://[2606:4700::1111]/'), none), undefined);
  });

  it('refuses a name when any resolved address is not public', () => {
    assert.equal(
      refuseResolved('mixed.test', ['93.184.216.34', '10.0.0.1'], none),
      'mixed.test resolves to 10.0.0.1, a private address',
    );
    assert.equal(refuseResolved('public.test', ['93.184.216.34', '2606:4700::1111'], none), undefined);
  });

  it('allows a resolved name when the name or each private address is allowlisted', () => {
    assert.equal(refuseResolved('mcp.local', ['10.0.0.1'], parseAllowlist('mcp.local')), undefined);
    assert.equal(refuseResolved('other.local', ['10.0.0.1'], parseAllowlist('10.0.0.0/8')), undefined);
  });

  it('refuses a name that resolved to nothing', () => {
    assert.equal(refuseResolved('empty.test', [], none), 'empty.test did not resolve to any address');
  });
});
