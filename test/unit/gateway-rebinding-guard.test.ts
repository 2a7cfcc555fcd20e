import assert from 'node:assert/strict';
import { rebindingRefusal } from '../../gateway/rebinding-guard';

describe('the gateway DNS-rebinding guard', () => {
  it('on a loopback address, passes loopback Host and Origin only', () => {
    for (const host of ['127.0.0.1:3100', 'localhost:3100', 'LOCALHOST', '[::1]:3100'])
      assert.equal(rebindingRefusal('127.0.0.1', host, undefined), undefined, host);
    assert.equal(rebindingRefusal('localhost', 'localhost:3100', 'http://127.0.0.1:5173'), undefined);
    assert.deepEqual(rebindingRefusal('127.0.0.1', 'evil.example.com', 'http://evil.example.com'), {
      header: 'Host',
      value: 'evil.example.com',
    });
    assert.deepEqual(rebindingRefusal('127.0.0.1', undefined, undefined), { header: 'Host', value: '' });
    assert.deepEqual(rebindingRefusal('::1', '127.0.0.1:3100', 'https://evil.example.com'), {
      header: 'Origin',
      value: 'https://evil.example.com',
    });
    assert.deepEqual(rebindingRefusal('127.0.0.1', '127.0.0.1:3100', 'null'), { header: 'Origin', value: 'null' });
  });

  it('on another address, refuses an Origin that names another host than Host', () => {
    assert.equal(rebindingRefusal('0.0.0.0', 'gateway.example.com', undefined), undefined);
    assert.equal(rebindingRefusal('0.0.0.0', 'gateway.example.com', 'https://gateway.example.com'), undefined);
    assert.deepEqual(rebindingRefusal('0.0.0.0', 'gateway.example.com', 'https://evil.example.com'), {
      header: 'Origin',
      value: 'https://evil.example.com',
    });
  });
});
