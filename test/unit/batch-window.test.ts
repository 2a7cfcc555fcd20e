import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EVAL_BATCH_MAX } from '../../domain/eval/eval-batches';
import { batchSize, LANE_WIDTH, laneWidths } from '../../workflows/batch-window';

describe('the eval-run window', () => {
  it('splits the concurrency into lanes no wider than LANE_WIDTH, at least two of them when it can', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 256 }), (concurrency) => {
        const widths = laneWidths(concurrency);
        assert.equal(
          widths.reduce((sum, w) => sum + w, 0),
          concurrency,
        );
        assert.ok(widths.every((w) => w >= 1 && w <= LANE_WIDTH));
        assert.equal(widths.length, Math.min(concurrency, Math.max(2, Math.ceil(concurrency / LANE_WIDTH))));
        assert.ok(Math.max(...widths) - Math.min(...widths) <= 1, 'lanes differ by more than one');
      }),
    );
    assert.deepEqual(laneWidths(1), [1]);
    assert.deepEqual(laneWidths(8), [4, 4]);
    assert.deepEqual(laneWidths(64), [8, 8, 8, 8, 8, 8, 8, 8]);
  });

  it('sizes batches so every lane ends its last one together, never above EVAL_BATCH_MAX', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 32 }), (remaining, lanes) => {
        const size = batchSize(remaining, lanes);
        assert.ok(size >= 1 && size <= EVAL_BATCH_MAX);
        // As few rounds of batches as the bound allows, and the last round is not left to a few lanes.
        const rounds = Math.ceil(remaining / (lanes * EVAL_BATCH_MAX));
        assert.ok(size * lanes * rounds >= remaining);
        assert.ok((size - 1) * lanes * rounds < remaining);
      }),
    );
    // 1,000 cases over 8 lanes: two rounds of 63, not ten batches of 100 with two lanes left to finish alone.
    assert.equal(batchSize(1_000, 8), 63);
  });
});
