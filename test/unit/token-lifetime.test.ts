import assert from 'node:assert/strict';
import { personalTokenExpiry, tokenLifetimeProblem } from '../../domain/tenancy/token-lifetime';

const NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const at = (days: number): Date => new Date(NOW + days * DAY);

describe('personal token lifetime', () => {
  it('gives a token asked without a lifetime the longest allowed, and none when the operator allows any', () => {
    assert.deepEqual(personalTokenExpiry(undefined, 90, null, NOW), at(90));
    assert.equal(personalTokenExpiry(undefined, 'none', null, NOW), null);
  });

  it('keeps a shorter lifetime, shortens a longer one to the maximum, and refuses asking for more', () => {
    assert.deepEqual(personalTokenExpiry(30, 90, null, NOW), at(30));
    assert.deepEqual(personalTokenExpiry(7, 3, null, NOW), at(3));
    assert.equal(tokenLifetimeProblem(91, 90), 'at most 90 days (TOKEN_MAX_DAYS)');
    assert.equal(tokenLifetimeProblem(90, 90), undefined);
    assert.equal(tokenLifetimeProblem(3650, 'none'), undefined);
  });

  it('never outlives the scoped token that mints it', () => {
    assert.deepEqual(personalTokenExpiry(30, 90, at(7), NOW), at(7));
    assert.deepEqual(personalTokenExpiry(undefined, 'none', at(7), NOW), at(7));
    assert.deepEqual(personalTokenExpiry(1, 90, at(7), NOW), at(1));
  });
});
