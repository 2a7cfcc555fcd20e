import assert from 'node:assert/strict';
import { isLoopbackHost, servesOnlyLoopback } from '../../lib/loopback-host';

describe('loopback bind addresses (the codec opens without a token only there)', () => {
  it('counts localhost and every literal loopback address, and nothing else', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.8.9.10', '::1', '[::1]', '::ffff:127.0.0.1'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.0.2.10', 'localhost.example.com', 'example.com', ''])
      assert.equal(isLoopbackHost(host), false, host);
  });

  it('needs a loopback bind and no public URL pointing elsewhere', () => {
    assert.equal(servesOnlyLoopback({ ASSAY_HOST: '127.0.0.1', ASSAY_PUBLIC_URL: undefined }), true);
    assert.equal(servesOnlyLoopback({ ASSAY_HOST: '::1', ASSAY_PUBLIC_URL: 'http://[::1]:3000' }), true);
    assert.equal(servesOnlyLoopback({ ASSAY_HOST: '0.0.0.0', ASSAY_PUBLIC_URL: undefined }), false);
    assert.equal(servesOnlyLoopback({ ASSAY_HOST: 'localhost', ASSAY_PUBLIC_URL: 'https://assay.example.com' }), false);
  });
});
