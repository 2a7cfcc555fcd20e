import assert from 'node:assert/strict';
import {
  addressRange,
  describeRange,
  isBlockedHostname,
  isPublicUnicast,
  normaliseHostname,
} from '../../lib/address-policy';

const REFUSED: ReadonlyArray<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['169.254.169.254', 'linkLocal'],
  ['169.254.0.1', 'linkLocal'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf:ffff::1', 'linkLocal'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['2002:7f00:1::1', '6to4'],
  ['2001::1', 'teredo'],
  ['::2', 'nonGlobal'],
  ['127.1', 'invalid'],
  ['2130706433', 'invalid'],
  ['not-an-ip', 'invalid'],
];

const PUBLIC: readonly string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '11.0.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.255.255',
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
];

describe('address policy', () => {
  for (const [ip, range] of REFUSED) {
    it(`refuses ${ip} as ${range}`, () => {
      assert.equal(isPublicUnicast(ip), false);
      assert.equal(addressRange(ip), range);
    });
  }

  for (const ip of PUBLIC) {
    it(`allows public unicast ${ip}`, () => {
      assert.equal(isPublicUnicast(ip), true);
    });
  }

  it('names the range kind of a refused address', () => {
    assert.equal(describeRange('127.0.0.1'), 'a loopback address');
    assert.equal(describeRange('::ffff:127.0.0.1'), 'a loopback address');
    assert.equal(describeRange('10.1.2.3'), 'a private address');
    assert.equal(describeRange('169.254.169.254'), 'a link-local address');
    assert.equal(describeRange('100.64.0.1'), 'a carrier-grade NAT address');
    assert.equal(describeRange('fd00::1'), 'a unique-local address');
  });

  it('refuses cloud metadata host names regardless of case and trailing dot', () => {
    assert.equal(isBlockedHostname('metadata.google.internal'), true);
    assert.equal(isBlockedHostname('Metadata.Google.Internal.'), true);
    assert.equal(isBlockedHostname('metadata'), true);
    assert.equal(isBlockedHostname('instance-data'), true);
    assert.equal(isBlockedHostname('example.com'), false);
    assert.equal(isBlockedHostname('mcp.corp.internal'), false);
  });

  it('normalises host names by dropping brackets, case and the root dot', () => {
    assert.equal(normaliseHostname('[::1]'), '::1');
    assert.equal(normaliseHostname('LocalHost.'), 'localhost');
  });
});
