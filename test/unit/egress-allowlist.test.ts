import assert from 'node:assert/strict';
import { parseAllowlist } from '../../lib/outbound/egress/allowlist';

describe('egress allowlist', () => {
  it('allows nothing when empty', () => {
    const allowlist = parseAllowlist('');
    assert.deepEqual(allowlist.entries, []);
    assert.equal(allowlist.allowsIp('127.0.0.1'), false);
    assert.equal(allowlist.allowsHost('localhost'), false);
  });

  it('ignores blanks and whitespace around entries', () => {
    const allowlist = parseAllowlist(' , mcp.local ,, 127.0.0.1 ,');
    assert.deepEqual(allowlist.entries, ['mcp.local', '127.0.0.1']);
  });

  it('matches host names exactly and case-insensitively, ignoring a trailing dot', () => {
    const allowlist = parseAllowlist('MCP.Example.Internal');
    assert.equal(allowlist.allowsHost('mcp.example.internal'), true);
    assert.equal(allowlist.allowsHost('mcp.example.internal.'), true);
    assert.equal(allowlist.allowsHost('evil.mcp.example.internal'), false);
    assert.equal(allowlist.allowsHost('example.internal'), false);
  });

  it('does not let a host entry allow an address or an address entry allow a host', () => {
    const allowlist = parseAllowlist('localhost,10.0.0.5');
    assert.equal(allowlist.allowsIp('127.0.0.1'), false);
    assert.equal(allowlist.allowsHost('10.0.0.5'), false);
  });

  it('matches a single IPv4 address, also in IPv4-mapped IPv6 form', () => {
    const allowlist = parseAllowlist('127.0.0.1');
    assert.equal(allowlist.allowsIp('127.0.0.1'), true);
    assert.equal(allowlist.allowsIp('::ffff:127.0.0.1'), true);
    assert.equal(allowlist.allowsIp('127.0.0.2'), false);
  });

  it('matches a single IPv6 address written with or without brackets', () => {
    assert.equal(parseAllowlist('::1').allowsIp('::1'), true);
    assert.equal(parseAllowlist('[::1]').allowsIp('[::1]'), true);
    assert.equal(parseAllowlist('::1').allowsIp('127.0.0.1'), false);
  });

  it('matches IPv4 CIDRs', () => {
    const allowlist = parseAllowlist('10.0.0.0/8, 192.168.10.0/24');
    assert.equal(allowlist.allowsIp('10.200.3.4'), true);
    assert.equal(allowlist.allowsIp('192.168.10.77'), true);
    assert.equal(allowlist.allowsIp('192.168.11.1'), false);
    assert.equal(allowlist.allowsIp('11.0.0.1'), false);
  });

  it('matches IPv6 CIDRs and keeps families apart', () => {
    const allowlist = parseAllowlist('fd00::/8');
    assert.equal(allowlist.allowsIp('fd12:3456::1'), true);
    assert.equal(allowlist.allowsIp('fc00::1'), false);
    assert.equal(allowlist.allowsIp('10.0.0.1'), false);
  });

  it('treats an IPv4-mapped IPv6 CIDR as the IPv4 network', () => {
    assert.equal(parseAllowlist('::ffff:10.0.0.0/104').allowsIp('10.9.9.9'), true);
  });

  it('rejects entries that are neither host, IP nor CIDR', () => {
    assert.throws(() => parseAllowlist('10.0.0.0/33'), /EGRESS_ALLOWLIST: "10.0.0.0\/33" is not a valid CIDR/);
    assert.throws(() => parseAllowlist('*.example.com'), /EGRESS_ALLOWLIST: "\*.example.com"/);
    assert.throws(() => parseAllowlist('http://host/'), /EGRESS_ALLOWLIST/);
  });
});
