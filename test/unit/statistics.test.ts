import assert from 'node:assert/strict';
import {
  bootstrapMeanInterval,
  passAtK,
  passHatK,
  resamplesFor,
  seededRandom,
  seedOf,
  wilsonInterval,
} from '../../domain/scoring/statistics';
import { mcnemarExact, pairedBootstrap } from '../../domain/scoring/statistics-paired';

const close = (actual: number | null | undefined, expected: number, digits = 4): void =>
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 0.5 * 10 ** -digits,
    `${actual} ≈ ${expected}`,
  );

describe('statistics', () => {
  it('gives the published Wilson 95% intervals (Newcombe 1998) for 8/10, 0/10, 10/10 and 81/263', () => {
    const cases: Array<[number, number, number, number]> = [
      [8, 10, 0.4902, 0.9433],
      [0, 10, 0, 0.2775],
      [10, 10, 0.7225, 1],
      [81, 263, 0.2553, 0.3662],
    ];
    for (const [successes, n, low, high] of cases) {
      const interval = wilsonInterval(successes, n);
      close(interval?.low, low);
      close(interval?.high, high);
    }
    assert.equal(wilsonInterval(0, 0), null);
    assert.deepEqual([wilsonInterval(0, 3)?.low, wilsonInterval(3, 3)?.high], [0, 1]);
  });

  it('gives the exact McNemar p-value: twice the binomial tail of the smaller discordant count', () => {
    close(mcnemarExact(1, 9), 22 / 1024, 10); // 2 · (1 + 10) ÷ 2^10
    close(mcnemarExact(9, 1), 22 / 1024, 10);
    close(mcnemarExact(2, 8), 112 / 1024, 10); // 2 · (1 + 10 + 45) ÷ 2^10
    close(mcnemarExact(0, 6), 2 / 64, 10);
    close(mcnemarExact(3, 12), 1152 / 32768, 10); // 2 · (1 + 15 + 105 + 455) ÷ 2^15
    assert.equal(mcnemarExact(5, 5), 1);
    assert.equal(mcnemarExact(0, 0), 1);
    assert.ok(mcnemarExact(600, 500) < 0.01 && mcnemarExact(600, 500) > 0, 'large counts do not underflow');
  });

  it('computes pass@k = 1 − C(n−c,k)/C(n,k) and pass^k = C(c,k)/C(n,k)', () => {
    close(passAtK(5, 2, 1), 0.4, 10);
    close(passAtK(5, 2, 2), 1 - 3 / 10, 10);
    close(passAtK(5, 2, 4), 1, 10);
    close(passHatK(5, 2, 1), 0.4, 10);
    close(passHatK(5, 2, 2), 1 / 10, 10);
    assert.equal(passHatK(5, 2, 3), 0);
    close(passHatK(10, 10, 10), 1, 10);
    assert.equal(passAtK(3, 3, 4), null);
    assert.equal(passHatK(3, 3, 0), null);
  });

  it('gives the same bootstrap interval for the same seed and another for another seed', () => {
    const values = [0.1, 0.5, 0.9, 0.3, 0.7, 1, 0];
    assert.deepEqual(bootstrapMeanInterval(values, seedOf('run-1')), bootstrapMeanInterval(values, seedOf('run-1')));
    assert.notDeepEqual(bootstrapMeanInterval(values, seedOf('run-1')), bootstrapMeanInterval(values, seedOf('run-2')));
    assert.equal(bootstrapMeanInterval([], 1), null);
  });

  it('takes 1,000 resamples, fewer once they would draw over 2,000,000 values', () => {
    assert.deepEqual([resamplesFor(1), resamplesFor(40), resamplesFor(2_000)], [1_000, 1_000, 1_000]);
    assert.deepEqual([resamplesFor(4_000), resamplesFor(10_000)], [500, 200]);
  });

  it('covers the true mean of a generated population with its bootstrap interval in about 95% of 400 seeds', () => {
    // The population: scores in [0, 1] skewed towards 1 (u^0.3), true mean 1 ÷ 1.3. Each seed draws a sample of 40.
    const trueMean = 1 / 1.3;
    let covered = 0;
    const seeds = 400;
    for (let seed = 1; seed <= seeds; seed++) {
      const draw = seededRandom(seed * 7919);
      const sample = Array.from({ length: 40 }, () => draw() ** 0.3);
      const interval = bootstrapMeanInterval(sample, seed);
      if (interval && interval.low <= trueMean && trueMean <= interval.high) covered++;
    }
    // Seeded, so the count is the same every time; the band is wide enough for the percentile method's small undercover.
    const rate = covered / seeds;
    assert.ok(rate >= 0.9 && rate <= 0.99, `coverage ${rate}`);
  });

  it('finds a paired shift significant and no shift not', () => {
    const baseline = Array.from({ length: 30 }, (_, i) => (i % 10) / 10);
    const worse = pairedBootstrap(
      baseline.map((score) => ({ run: Math.max(0, score - 0.3), baseline: score })),
      seedOf('a'),
    );
    assert.ok(worse && worse.p_value < 0.01 && worse.interval.high < 0, JSON.stringify(worse));
    close(worse?.delta, -0.24, 6);
    const same = pairedBootstrap(
      baseline.map((score) => ({ run: score, baseline: score })),
      seedOf('a'),
    );
    assert.deepEqual(same, { delta: 0, interval: { low: 0, high: 0 }, p_value: 1, pairs: 30 });
    assert.equal(pairedBootstrap([], 1), null);
  });
});
