import assert from 'node:assert/strict';

describe('runtime', () => {
  it('runs under Node.js 24 LTS (scripts/provision.sh installs it when the machine has an older node)', () => {
    assert.match(process.version, /^v24\./);
  });
});
