import assert from 'node:assert/strict';
import { createWorkspaceSlots } from '../../lib/workspace-slots';

describe('health-check slots of a worker', () => {
  it('gives a workspace at most its cap, frees a slot once per release, and leaves other workspaces alone', () => {
    const slots = createWorkspaceSlots(2);
    const first = slots.tryTake('a');
    const second = slots.tryTake('a');
    assert.ok(first && second);
    assert.equal(slots.tryTake('a'), null);
    assert.ok(slots.tryTake('b'), 'another workspace has its own slots');

    first();
    first();
    assert.equal(slots.held('a'), 1, 'a second release of the same slot frees nothing');
    const third = slots.tryTake('a');
    assert.ok(third);
    assert.equal(slots.tryTake('a'), null);
    second();
    third();
    assert.equal(slots.held('a'), 0);
  });
});
