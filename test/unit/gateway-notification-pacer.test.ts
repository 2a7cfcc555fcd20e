import assert from 'node:assert/strict';
import { mock } from 'node:test';
import { LIMITS } from '../../domain/limits';
import { NotificationPacer, type ListKind } from '../../gateway/forward/notification-pacer';

describe('the gateway notification pacer', () => {
  let sent: ListKind[];
  let pacer: NotificationPacer;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
    sent = [];
    pacer = new NotificationPacer((kind) => void sent.push(kind));
  });
  afterEach(() => {
    pacer.close();
    mock.timers.reset();
  });

  it('sends a list change at once, then the rest of the interval as one trailing send per kind', () => {
    for (let i = 0; i < 1_000; i++) {
      pacer.listChanged('resources');
      pacer.listChanged('prompts');
    }
    assert.deepEqual(sent, ['resources', 'prompts']);
    mock.timers.tick(LIMITS.gatewayListChangedMs - 1);
    assert.deepEqual(sent, ['resources', 'prompts'], 'nothing more within the interval');
    mock.timers.tick(1);
    assert.deepEqual(sent, ['resources', 'prompts', 'resources', 'prompts'], 'the last change is sent');
    mock.timers.tick(LIMITS.gatewayListChangedMs * 5);
    assert.equal(sent.length, 4, 'nothing without a new change');
  });

  it('sends nothing pending once closed', () => {
    pacer.listChanged('resources');
    pacer.listChanged('resources');
    pacer.close();
    mock.timers.tick(LIMITS.gatewayListChangedMs * 2);
    pacer.listChanged('resources');
    assert.deepEqual(sent, ['resources']);
  });

  it('admits gatewayResourceUpdatesPerSecond resource updates each second and refuses the rest', () => {
    const admitted = (): number =>
      Array.from({ length: 1_000 }, () => pacer.admitsUpdate()).filter((admits) => admits).length;
    assert.equal(admitted(), LIMITS.gatewayResourceUpdatesPerSecond);
    mock.timers.tick(999);
    assert.equal(admitted(), 0, 'the same second');
    mock.timers.tick(1);
    assert.equal(admitted(), LIMITS.gatewayResourceUpdatesPerSecond, 'the next second');
  });
});
